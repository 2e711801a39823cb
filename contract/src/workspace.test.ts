import { describe, expect, it } from 'vitest';
import { ZCreateAdviceRequest } from './advice.ts';
import {
  contactInitial,
  dropBlank,
  ZCreateContactRequest,
  ZInteractionRequest,
  ZUpdateContactRequest,
} from './contacts.ts';
import { isValidDate, todayUtc, ZDateOnly, ZQueryBool } from './fields.ts';
import { ZCreateJournalRequest } from './journals.ts';
import { normalizeTaskPriority, TASK_EDIT_STATUSES, ZCreateTaskRequest, ZTaskListQuery } from './tasks.ts';

describe('dates', () => {
  it('accepts YYYY-MM-DD and cuts date-times to their date', () => {
    expect(ZDateOnly.parse('2026-11-21')).toBe('2026-11-21');
    expect(ZDateOnly.parse('2026-11-21T23:59:00Z')).toBe('2026-11-21');
    expect(ZDateOnly.safeParse('2026-02-29').success).toBe(false);
    expect(ZDateOnly.safeParse('21/11/2026').success).toBe(false);
    expect(isValidDate('2028-02-29')).toBe(true);
    expect(todayUtc(new Date('2026-11-21T23:59:59.999Z'))).toBe('2026-11-21');
  });

  it('reads boolean query values', () => {
    expect(ZQueryBool.parse('true')).toBe(true);
    expect(ZQueryBool.parse('0')).toBe(false);
    expect(ZQueryBool.safeParse('yes').success).toBe(false);
  });
});

describe('tasks', () => {
  it('normalizes priorities and defaults to Medium / To Do', () => {
    expect(normalizeTaskPriority('high')).toBe('High');
    expect(normalizeTaskPriority(' URGENT ')).toBe('Urgent');
    expect(normalizeTaskPriority('asap')).toBeNull();
    expect(ZCreateTaskRequest.parse({ title: 'x' })).toMatchObject({ priority: 'Medium', status: 'To Do' });
    expect(ZCreateTaskRequest.parse({ title: 'x', priority: 'low' }).priority).toBe('Low');
    const bad = ZCreateTaskRequest.safeParse({ title: 'x', priority: 'critical' });
    expect(bad.error?.issues[0].message).toBe('Priority must be Low, Medium, High or Urgent');
    expect(ZTaskListQuery.parse({ priority: 'urgent' }).priority).toBe('Urgent');
  });

  it('requires a title', () => {
    expect(ZCreateTaskRequest.safeParse({ title: ' ' }).error?.issues[0].message).toBe('Title is required');
    expect(ZCreateTaskRequest.safeParse({}).error?.issues[0].message).toBe('Title is required');
  });

  it('offers six statuses on edit, without Pending', () => {
    expect(TASK_EDIT_STATUSES).toEqual(['To Do', 'In Progress', 'Done', 'Review', 'Cancelled', 'Bottleneck']);
  });
});

describe('contacts', () => {
  it('drops blank e-mails and phones, trims role, nulls blank notes', () => {
    const c = ZCreateContactRequest.parse({
      name: ' Ada ',
      role: '  CFO ',
      emails: ['', ' Ada@Example.com ', '  ', 'ada@example.com'],
      phones: [' ', '+1 555 0100 '],
      notes: '   ',
    });
    expect(c).toMatchObject({
      name: 'Ada',
      role: 'CFO',
      emails: ['ada@example.com'],
      phones: ['+1 555 0100'],
      notes: null,
    });
    expect(dropBlank([' a ', null, '', 'b'])).toEqual(['a', 'b']);
  });

  it('validates with the spec messages', () => {
    expect(ZCreateContactRequest.safeParse({ name: ' ' }).error?.issues[0].message).toBe('Name is required.');
    expect(ZCreateContactRequest.safeParse({}).error?.issues[0].message).toBe('Name is required.');
    expect(ZUpdateContactRequest.safeParse({ name: '' }).error?.issues[0].message).toBe('Name is required.');
    expect(ZCreateContactRequest.safeParse({ name: 'a', emails: ['nope'] }).error?.issues[0].message).toBe(
      'Invalid email address',
    );
    const i = ZInteractionRequest.safeParse({ date: '', summary: ' ' });
    expect(i.error?.issues.map((x) => x.message)).toEqual(['Date is required.', 'Title is required.']);
    expect(ZInteractionRequest.safeParse({}).error?.issues.map((x) => x.message)).toEqual([
      'Date is required.',
      'Title is required.',
    ]);
  });

  it('derives the avatar initial from the name', () => {
    expect(contactInitial(' ada')).toBe('A');
    expect(contactInitial('')).toBe('?');
  });
});

describe('advice and notes', () => {
  it('require content', () => {
    expect(ZCreateAdviceRequest.safeParse({ content: '  ' }).error?.issues[0].message).toBe(
      'Content required',
    );
    expect(ZCreateAdviceRequest.safeParse({}).error?.issues[0].message).toBe('Content required');
    expect(ZCreateJournalRequest.safeParse({ content: '\n' }).error?.issues[0].message).toBe(
      'Content is required.',
    );
  });
});
