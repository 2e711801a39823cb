import type { TBrief } from '@cc/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

const now = new Date().toISOString();

function makeBrief(over: Partial<TBrief> = {}): TBrief {
  return {
    id: 'b1',
    user_id: 'user-1',
    period_start: '2026-06-08T08:00:00.000Z',
    period_end: now,
    created_at: now,
    trigger: 'manual',
    summary: 'Since the previous brief: 1 task needs you.',
    summary_status: 'checked',
    actions: [
      {
        text: 'Finish or re-date task “Board deck”.',
        citations: [{ type: 'task', id: 't1', title: 'Board deck', url: '/app/my-tasks?task=t1' }],
      },
    ],
    sections: [
      {
        key: 'kpi_moves',
        title: 'KPI moves since the previous brief',
        enough_data: false,
        items: [{ text: 'Not enough data', citations: [] }],
      },
      {
        key: 'comms_waiting',
        title: 'Threads awaiting your reply',
        enough_data: true,
        items: [
          {
            text: 'Pat wrote 30 hours ago and is waiting for your reply.',
            citations: [
              { type: 'thread', id: 'th1', title: 'Conversation with Pat', url: '/app/comms?thread=th1' },
            ],
          },
        ],
      },
    ],
    delivery: { status: 'not_configured', reason: null, delivered_at: null },
    ...over,
  };
}

describe('Brief page', () => {
  it('shows the newest brief: summary, actions and facts whose sources open the records', async () => {
    const older = makeBrief({
      id: 'b0',
      created_at: '2026-06-01T08:00:00.000Z',
      summary: 'An older brief.',
      summary_status: 'replaced',
      delivery: {
        status: 'not_delivered',
        reason: 'connect ECONNREFUSED 127.0.0.1:2525',
        delivered_at: null,
      },
    });
    mockApi({
      'GET /api/users/me': { body: makeUser({ user_level: 'ceo' }) },
      'GET /api/briefs/': { body: [makeBrief(), older] },
      'GET /api/briefs/b1': { body: makeBrief() },
      'GET /api/briefs/b0': { body: older },
    });
    renderApp({ path: '/app/brief', token: 'tok' });

    const brief = await screen.findByRole('article', { name: 'Brief' });
    expect(within(brief).getByText('Since the previous brief: 1 task needs you.')).toBeInTheDocument();
    expect(within(brief).getByRole('link', { name: 'Finish or re-date task “Board deck”.' })).toHaveAttribute(
      'href',
      '/app/my-tasks?task=t1',
    );
    expect(within(brief).getByText('Not enough data')).toBeInTheDocument();
    expect(within(brief).getByRole('link', { name: /Conversation with Pat/ })).toHaveAttribute(
      'href',
      '/app/comms?thread=th1',
    );
    expect(within(brief).queryByText(/not delivered/)).not.toBeInTheDocument();

    // The history opens an earlier brief, which says it was not delivered and why, and that its summary was replaced.
    const history = screen.getByRole('list', { name: 'Earlier briefs' });
    expect(within(history).getAllByRole('button')).toHaveLength(2);
    await userEvent.click(within(history).getAllByRole('button')[1]);
    expect(await screen.findByText('An older brief.')).toBeInTheDocument();
    expect(screen.getByText('not delivered: connect ECONNREFUSED 127.0.0.1:2525')).toBeInTheDocument();
    expect(screen.getByText(/named a number that is not in the facts/)).toBeInTheDocument();
  });

  it('opens a waiting item in the inbox from its action and from its chip', async () => {
    const inbox = { type: 'inbox', id: 'i1', title: 'Call top customers', url: '/app/inbox?item=i1' };
    const waiting = makeBrief({
      actions: [{ text: 'Decide on “Call top customers” in your inbox.', citations: [inbox] }],
      sections: [
        {
          key: 'items_waiting',
          title: 'Waiting for you',
          enough_data: true,
          items: [
            { text: 'Task suggestion “Call top customers” waits for your approval.', citations: [inbox] },
          ],
        },
      ],
    });
    mockApi({
      'GET /api/users/me': { body: makeUser({ user_level: 'ceo' }) },
      'GET /api/briefs/': { body: [waiting] },
      'GET /api/briefs/b1': { body: waiting },
    });
    renderApp({ path: '/app/brief', token: 'tok' });
    const brief = await screen.findByRole('article', { name: 'Brief' });
    expect(
      within(brief).getByRole('link', { name: 'Decide on “Call top customers” in your inbox.' }),
    ).toHaveAttribute('href', '/app/inbox?item=i1');
    expect(within(brief).getByRole('link', { name: 'Inbox item: Call top customers' })).toHaveAttribute(
      'href',
      '/app/inbox?item=i1',
    );
  });

  it('generates a brief now and shows it', async () => {
    const fresh = makeBrief({ id: 'b2', summary: 'Fresh brief.' });
    let made = false;
    const { callsTo } = mockApi({
      'GET /api/users/me': { body: makeUser({ user_level: 'ceo' }) },
      'GET /api/briefs/': () => ({ body: made ? [fresh] : [] }),
      'POST /api/briefs/generate': () => {
        made = true;
        return { status: 201, body: fresh };
      },
      'GET /api/briefs/b2': { body: fresh },
    });
    renderApp({ path: '/app/brief', token: 'tok' });
    expect(await screen.findByText(/No brief yet/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Generate brief now' }));
    expect(await screen.findByText('Fresh brief.')).toBeInTheDocument();
    expect(callsTo('POST', '/api/briefs/generate')).toHaveLength(1);
  });
});

describe("Today's brief card", () => {
  it('shows today’s summary and actions on the CEO dashboard', async () => {
    mockApi({
      'GET /api/users/me': { body: makeUser({ user_level: 'ceo' }) },
      'GET /api/briefs/': { body: [makeBrief()] },
    });
    renderApp({ path: '/app/ceodashboard', token: 'tok' });
    expect(await screen.findByText("Today's brief")).toBeInTheDocument();
    expect(await screen.findByText('Since the previous brief: 1 task needs you.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Finish or re-date task “Board deck”.' })).toHaveAttribute(
      'href',
      '/app/my-tasks?task=t1',
    );
    expect(screen.getByRole('link', { name: 'Open brief' })).toHaveAttribute('href', '/app/brief?id=b1');
  });

  it('says there is none when the latest brief is not from today', async () => {
    mockApi({
      'GET /api/users/me': { body: makeUser({ user_level: 'ceo' }) },
      'GET /api/briefs/': { body: [makeBrief({ created_at: '2020-01-01T08:00:00.000Z' })] },
    });
    renderApp({ path: '/app/ceodashboard', token: 'tok' });
    expect(await screen.findByText('No brief today yet.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open brief' })).toHaveAttribute('href', '/app/brief');
  });
});
