import { describe, expect, it } from 'vitest';
import { digestOf } from '../../../db/migrations/0032_approval_binding.ts';
import { argumentsDigest, bindingOf, isBoundTo } from './call-binding.ts';
import type { RunTool } from './tools.ts';

const tool = (over: Partial<RunTool> = {}): RunTool => ({
  id: 'tool-1',
  name: 'Server: create_ticket',
  description: null,
  kind: 'mcp',
  function_name: null,
  http_url: null,
  http_method: null,
  input_schema: '{}',
  mcp_tool: 'create_ticket',
  requires_approval: 1,
  created_by: null,
  is_auto_gen: 0,
  ...over,
});

describe('the call an approval is bound to (issue 46 row 4)', () => {
  it('matches the same tool, server tool and arguments whatever their key order; nothing else', () => {
    const b = bindingOf(tool(), { title: 'Printer', meta: { a: 1, b: [1, { c: 2 }] } });
    const row = { tool_id: 'tool-1', server_tool: 'create_ticket', proposed_digest: b.proposedDigest };
    expect(isBoundTo(row, bindingOf(tool(), { meta: { b: [1, { c: 2 }], a: 1 }, title: 'Printer' }))).toBe(
      true,
    );
    expect(isBoundTo(row, bindingOf(tool(), { title: 'Printer!', meta: { a: 1, b: [1, { c: 2 }] } }))).toBe(
      false,
    );
    expect(isBoundTo(row, bindingOf(tool({ mcp_tool: 'delete_all' }), { title: 'Printer' }))).toBe(false);
    expect(isBoundTo(row, bindingOf(tool({ id: 'tool-2' }), { title: 'Printer' }))).toBe(false);
    // A row written before the binding (no digest) binds to nothing: the person is asked again.
    expect(isBoundTo({ ...row, proposed_digest: null }, b)).toBe(false);
  });

  it('an HTTP tool binds with no server tool', () => {
    const b = bindingOf(tool({ kind: 'http', mcp_tool: undefined, http_url: 'https://x.example' }), { q: 1 });
    expect(b.serverTool).toBeNull();
  });

  it("the migration's backfill computes the same digest as the engine", () => {
    for (const args of [{}, { q: 'x' }, { z: 1, a: [null, true, 'é'], n: { y: 2, x: 1 } }])
      expect(digestOf(JSON.stringify(args))).toBe(argumentsDigest(args));
    expect(digestOf('not json')).toBe(argumentsDigest({}));
  });
});
