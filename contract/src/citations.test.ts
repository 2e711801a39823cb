import { describe, expect, it } from 'vitest';
import { citationUrl, runUrl } from './citations.ts';

describe('citationUrl', () => {
  it('opens each record type on the page that shows it', () => {
    expect(citationUrl('goal', 'g1')).toBe('/app/strategy?goal=g1');
    expect(citationUrl('kpi', 'k1')).toBe('/app/strategy?kpi=k1');
    expect(citationUrl('advice', 'a1')).toBe('/app/strategy?advice=a1');
    expect(citationUrl('task', 't1')).toBe('/app/my-tasks?task=t1');
    expect(citationUrl('suggestion', 's1')).toBe('/app/my-tasks?suggestion=s1');
    expect(citationUrl('note', 'n1')).toBe('/app/notes?note=n1');
    expect(citationUrl('contact', 'c1')).toBe('/app/contacts?contact=c1');
    expect(citationUrl('file', 'f1')).toBe('/app/files?file=f1');
    expect(citationUrl('thread', 'th1')).toBe('/app/comms?thread=th1');
    expect(citationUrl('run', 'r1')).toBe('/app/runs/r1');
  });

  it('encodes the id, so an odd id cannot change the path or add parameters', () => {
    expect(citationUrl('note', 'a&b=c')).toBe('/app/notes?note=a%26b%3Dc');
    expect(citationUrl('run', '../admin')).toBe('/app/runs/..%2Fadmin');
  });

  it('a web page is its own URL; an unknown type falls back to the dashboard', () => {
    expect(citationUrl('web', 'https://example.com/x')).toBe('https://example.com/x');
    expect(citationUrl('mystery', 'x')).toBe('/app/ceodashboard');
  });
});

describe('runUrl', () => {
  it("is the run's page of its kind", () => {
    expect(runUrl('crew', 'r1')).toBe('/app/runs/crew/r1');
    expect(runUrl('flow', 'r 2')).toBe('/app/runs/flow/r%202');
  });
});
