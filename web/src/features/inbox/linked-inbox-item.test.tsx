import type { TInboxItem } from '@cc/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';
import { INBOX_LINKED_GONE, INBOX_LINKED_NOT_SHOWN } from './use-linked-inbox-item';

// The shell's inbox stream: a test pushes its note through the handler the shell registered.
const streams = new Map<string, (msg: { data: unknown }) => void>();
vi.mock('../../lib/event-stream', () => ({
  useEventStream: (path: string | null, opts: { onMessage(m: { data: unknown }): void }) => {
    if (path) streams.set(path, opts.onMessage);
    return path ? 'open' : 'closed';
  },
}));

function makeItem(id: string, title: string): TInboxItem {
  return {
    id,
    kind: 'task_suggestion',
    title,
    summary: '',
    created_at: new Date().toISOString(),
    source: { type: 'task_suggestion', id: `sug-${id}`, url: '/app/my-tasks' },
    assignee_user_id: 'user-ceo',
    details: { title },
  };
}

function open(path: string, items: TInboxItem[], total = items.length) {
  let current = items;
  const api = mockApi({
    'GET /api/users/me': { body: makeUser({ id: 'user-ceo', user_level: 'ceo' }) },
    'GET /api/inbox/': () => ({ body: { items: current, total: Math.max(total, current.length) } }),
    'GET /api/inbox/count': () => ({ body: { count: current.length } }),
    'POST /api/inbox/item-2/approve': async () => {
      // As on a real server, the stream's note can reload the list (and unmount the item's card)
      // before the action's own answer arrives.
      current = current.filter((i) => i.id !== 'item-2');
      act(() => streams.get('/api/inbox/events')?.({ data: { kind: 'inbox_changed' } }));
      await waitFor(() => expect(screen.queryByText('Call top customers', { selector: 'h2' })).toBeNull());
      return { body: { id: 'item-2', status: 'approved', assignee_user_id: 'user-ceo' } };
    },
  });
  const { router } = renderApp({ path, token: 'tok' });
  return { api, router };
}

const rowOf = async (title: string) => {
  const list = await screen.findByRole('list', { name: 'Waiting items' });
  return within(list)
    .getAllByRole('listitem')
    .find((li) => within(li).queryByText(title)) as HTMLElement;
};

describe('Inbox page: a linked item (/app/inbox?item=…)', () => {
  it('focuses and marks the linked item, drops the parameter, and its actions act on it', async () => {
    const { api, router } = open('/app/inbox?item=item-2', [
      makeItem('item-1', 'Book the offsite'),
      makeItem('item-2', 'Call top customers'),
    ]);
    const linked = await rowOf('Call top customers');
    await waitFor(() => expect(linked).toHaveAttribute('aria-current', 'true'));
    expect(linked).toHaveFocus();
    expect(await rowOf('Book the offsite')).not.toHaveAttribute('aria-current');
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.queryByText(INBOX_LINKED_GONE)).not.toBeInTheDocument();

    await userEvent.setup().click(within(linked).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/inbox/item-2/approve')).toHaveLength(1));
    // The item left the list (its card unmounted first), and the person is still told it was approved.
    expect(await screen.findByText('Approved')).toBeInTheDocument();
  });

  it('says so when the linked item no longer waits for the reader', async () => {
    const { router } = open('/app/inbox?item=item-9', [makeItem('item-1', 'Book the offsite')]);
    expect(await screen.findByText(INBOX_LINKED_GONE)).toBeInTheDocument();
    expect(await rowOf('Book the offsite')).not.toHaveAttribute('aria-current');
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(INBOX_LINKED_GONE)).not.toBeInTheDocument();
  });

  it('says so, too, when the inbox is empty', async () => {
    open('/app/inbox?item=item-9', []);
    expect(await screen.findByText(INBOX_LINKED_GONE)).toBeInTheDocument();
  });

  it('does not claim it is gone when the list shows only the oldest items', async () => {
    open('/app/inbox?item=item-9', [makeItem('item-1', 'Book the offsite')], 150);
    expect(await screen.findByText(INBOX_LINKED_NOT_SHOWN)).toBeInTheDocument();
    expect(screen.queryByText(INBOX_LINKED_GONE)).not.toBeInTheDocument();
  });
});
