import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MessageItem } from './components/message-item';
import { MessageStore } from './message-store';

const base = {
  conversation_id: 'c1',
  timestamp: '2026-03-01T10:00:00.000Z',
  crew_run_id: null,
  flow_run_id: null,
  model: null,
  usage: null,
  citations: [],
};

describe('copying a chat message', () => {
  it('copies the message text (as written, markdown included) and says so', async () => {
    const user = userEvent.setup();
    const store = new MessageStore();
    store.upsert([
      {
        ...base,
        id: 'm1',
        sender: 'assistant' as const,
        text: 'ARR is **9.3 $M**.',
        status: 'complete' as const,
        position: 1,
      },
    ]);
    render(<MessageItem id="m1" store={store} />);
    await user.click(screen.getByRole('button', { name: 'Copy message' }));
    expect(await navigator.clipboard.readText()).toBe('ARR is **9.3 $M**.');
    expect(screen.getByRole('button', { name: 'Copied' })).toBeInTheDocument();
  });

  it('offers no copy while the answer is still streaming', () => {
    const store = new MessageStore();
    store.upsert([
      {
        ...base,
        id: 'm2',
        sender: 'assistant' as const,
        text: 'Partial',
        status: 'streaming' as const,
        position: 1,
      },
    ]);
    render(<MessageItem id="m2" store={store} />);
    const row = screen.getByTestId('chat-message');
    expect(within(row).queryByRole('button', { name: 'Copy message' })).not.toBeInTheDocument();
  });
});
