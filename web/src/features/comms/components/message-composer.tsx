import { SendHorizontal } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';

export const COMPOSER_PLACEHOLDER = 'Type a message...';

/** The composer: Enter sends, Shift+Enter adds a line; send is disabled while the text is blank. */
export function MessageComposer({
  onSend,
  pending,
}: {
  onSend: (text: string) => Promise<unknown>;
  pending: boolean;
}) {
  const [text, setText] = useState('');
  const id = useId();
  const blank = text.trim() === '';

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (blank || pending) return;
    try {
      await onSend(text);
      setText('');
    } catch {
      // The text stays so it can be sent again.
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    }
  };

  return (
    <form onSubmit={submit} className="flex items-end gap-2 border-t border-border p-3">
      <label htmlFor={id} className="sr-only">
        Message
      </label>
      <Textarea
        id={id}
        rows={1}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        placeholder={COMPOSER_PLACEHOLDER}
        maxLength={4000}
        className="max-h-[100px] min-h-10 resize-none sm:max-h-[150px]"
      />
      <Button type="submit" size="icon" disabled={blank || pending} aria-label="Send message">
        {pending ? <Spinner /> : <SendHorizontal aria-hidden="true" />}
      </Button>
    </form>
  );
}
