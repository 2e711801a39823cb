import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOL_FUNCTIONS, FLOW_STEP_KINDS, TOOL_KINDS } from './factory.ts';
import {
  BUILTIN_FUNCTION_LABELS,
  FLOW_STEP_KIND_LABELS,
  factoryLabel,
  runEventLabel,
  TOOL_KIND_LABELS,
} from './factory-labels.ts';

const IDENTIFIER = /^[a-z]+(_[a-z]+)+$/;

describe('factory labels', () => {
  it('gives every tool kind, built-in function and step kind a label that is not an identifier', () => {
    for (const k of TOOL_KINDS) expect(TOOL_KIND_LABELS[k]).not.toMatch(IDENTIFIER);
    for (const f of BUILTIN_TOOL_FUNCTIONS) expect(BUILTIN_FUNCTION_LABELS[f]).not.toMatch(IDENTIFIER);
    for (const s of FLOW_STEP_KINDS) expect(FLOW_STEP_KIND_LABELS[s]).not.toMatch(IDENTIFIER);
  });

  it('labels internal identifiers and leaves names people gave as written', () => {
    expect(factoryLabel('internal_search')).toBe('Internal search');
    expect(factoryLabel('initial_goal')).toBe('Initial goal');
    expect(factoryLabel('strategic_flow')).toBe('Strategic advice flow');
    expect(factoryLabel('My CRM lookup')).toBe('My CRM lookup');
  });

  it('names run event types in words, unknown ones too', () => {
    expect(runEventLabel('approval_required')).toBe('Approval needed');
    expect(runEventLabel('some_new_event')).toBe('Some new event');
  });
});
