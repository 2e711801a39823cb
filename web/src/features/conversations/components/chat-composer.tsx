import { SendHorizontal, Square } from 'lucide-react';
import { type KeyboardEvent, type ReactNode, useRef, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Textarea } from '../../../components/ui/textarea';
import { useMediaQuery } from '../../../lib/use-media-query';

interface ChatComposerProps {
  /**
   * Called with the trimmed text; blank sends never reach it. A promise of false means the message was
   * refused unsent: its text comes back into the box (unless something new was typed meanwhile).
   */
  onSend: (text: string) => Promise<boolean> | undefined;
  onStop: () => void;
  /** A reply is being written: sending waits, the stop button shows. */
  replying: boolean;
  disabled?: boolean;
  /** Why the last message was refused (e.g. the server's rate limit), shown above the box. */
  notice?: string | null;
  /** A line the route adds above the box (the remaining AI budget when it runs low). */
  hint?: ReactNode;
}

/**
 * The chat input: Enter sends, Shift+Enter adds a line; the text is trimmed and a blank send is
 * ignored. Grows with its content up to 100 px on small screens and 150 px on larger ones.
 */
export function ChatComposer({
  onSend,
  onStop,
  replying,
  disabled = false,
  notice,
  hint,
}: ChatComposerProps) {
  const [text, setText] = useState('');
  const formRef = useRef<HTMLFormElement>(null);
  const blank = text.trim() === '';
  // The keyboard hint does not fit a phone's box (it was clipped at 375 px); there it is left out.
  const wide = useMediaQuery('(min-width: 640px)');

  const submit = () => {
    const value = text.trim();
    if (!value || replying || disabled) return;
    const result = onSend(value);
    setText('');
    void result?.then((sent) => {
      if (!sent) setText((current) => (current === '' ? value : current));
    });
    const input = formRef.current?.querySelector('textarea');
    if (input) input.style.height = '';
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  };

  const grow = (el: HTMLTextAreaElement) => {
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight}px`;
  };

  const form = (
    <form
      ref={formRef}
      className="flex items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label htmlFor="chat-input" className="sr-only">
        Message
      </label>
      <Textarea
        id="chat-input"
        rows={1}
        value={text}
        disabled={disabled}
        placeholder={
          wide ? 'Type a message... (Enter to send, Shift+Enter for a new line)' : 'Type a message...'
        }
        className="max-h-[100px] min-h-10 resize-none overflow-y-auto sm:max-h-[150px]"
        onChange={(e) => {
          setText(e.target.value);
          grow(e.target);
        }}
        onKeyDown={onKeyDown}
      />
      {replying ? (
        <Button type="button" variant="destructive" onClick={onStop} aria-label="Stop">
          <Square aria-hidden="true" />
          Stop
        </Button>
      ) : (
        <Button type="submit" disabled={blank || disabled} aria-label="Send">
          <SendHorizontal aria-hidden="true" />
          Send
        </Button>
      )}
    </form>
  );
  // One structure with or without a notice, so the box keeps its focus and caret when one appears.
  return (
    <div className="flex flex-col gap-2">
      {notice ? <Alert>{notice}</Alert> : null}
      {hint}
      {form}
    </div>
  );
}
