import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RunTimeline } from './components/run-timeline';

const event = (id: string, type: string, summary: string) => ({
  id,
  run_id: 'r1',
  type,
  summary,
  details: null,
  ts: '2026-11-29T09:30:00.000Z',
  thread_id: null,
});

describe('the run timeline (issue 47 item 4)', () => {
  it('names each event type in words, never as its identifier', () => {
    render(
      <RunTimeline
        events={[
          event('e1', 'approval_required', 'Approval needed: Webhook wants to POST https://x.test'),
          event('e2', 'tool_call', 'Writer calls Internal search'),
        ]}
      />,
    );
    const items = within(screen.getByRole('log', { name: 'Run timeline' })).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Approval needed ·');
    expect(items[1]).toHaveTextContent('Tool call ·');
    expect(screen.getByRole('log').textContent).not.toMatch(/approval_required|tool_call|approval required/);
  });
});
