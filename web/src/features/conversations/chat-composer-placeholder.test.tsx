import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatComposer } from './components/chat-composer';

/** A matchMedia that answers every min-width query as a screen of this width would. */
function screenWidth(px: number) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: Number(/min-width:\s*(\d+)px/.exec(query)?.[1] ?? 0) <= px,
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

describe('ChatComposer placeholder', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is short on a phone, so it is not clipped at 375 px', () => {
    screenWidth(375);
    render(<ChatComposer onSend={() => undefined} onStop={() => {}} replying={false} />);
    expect(screen.getByLabelText('Message')).toHaveAttribute('placeholder', 'Type a message...');
  });

  it('names the keys on a wider screen', () => {
    screenWidth(1366);
    render(<ChatComposer onSend={() => undefined} onStop={() => {}} replying={false} />);
    expect(screen.getByLabelText('Message')).toHaveAttribute(
      'placeholder',
      'Type a message... (Enter to send, Shift+Enter for a new line)',
    );
  });
});
