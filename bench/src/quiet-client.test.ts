import { describe, expect, it } from 'vitest';
import { budgetsFromNotes } from './budgets.ts';
import { quietNote, waitForQuietMachine } from './quiet-client.ts';

describe('waitForQuietMachine', () => {
  it('gives up at its limit when the machine never gets quiet enough, and says how idle it was', async () => {
    const q = await waitForQuietMachine(101, 50, 300);
    expect(q.waited_ms).toBeGreaterThanOrEqual(300);
    expect(q.waited_ms).toBeLessThan(2000);
    expect(q.idle_pct).toBeGreaterThanOrEqual(0);
    expect(q.idle_pct).toBeLessThanOrEqual(100);
  });

  it('returns after two quiet windows in a row when the bar is met', async () => {
    const q = await waitForQuietMachine(0, 50, 5000);
    expect(q.waited_ms).toBeGreaterThanOrEqual(100);
    expect(q.waited_ms).toBeLessThan(1000);
  });

  it('is a segment of its own in a note: the budget rows stay as they were', () => {
    const note = `fan-out to 2000 streams: p99 47 ms (budget p99 50 ms: PASS); ${quietNote({ waited_ms: 1200, idle_pct: 91, steal_pct: 2 })}`;
    expect(note).toContain('machine quiet after 1200 ms (idle 91 %, steal 2 %)');
    expect(budgetsFromNotes('comms-streams', [note])).toEqual([
      {
        group: 'comms-streams',
        name: 'fan-out to 2000 streams',
        budget: 'p99 50 ms',
        figure: 'p99 47 ms',
        pass: true,
      },
    ]);
  });
});
