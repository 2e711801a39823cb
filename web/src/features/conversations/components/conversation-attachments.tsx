import { FileText, Paperclip } from 'lucide-react';
import { useRef } from 'react';
import { Button } from '../../../components/ui/button';
import { serverDetail } from '../../../lib/api';
import { notify } from '../../../lib/toast';
import { useAttachFiles, useConversationAttachments } from '../api';

/**
 * The composer's attachments: the "Attach files" button uploads into the conversation (the assistant
 * reads their text as context) and the files already attached show as chips above the composer.
 */
export function ConversationAttachments({ conversationId }: { conversationId: string }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const attachments = useConversationAttachments(conversationId);
  const attach = useAttachFiles(conversationId);
  const files = attachments.data ?? [];

  const onPick = (list: FileList | null) => {
    const picked = list ? [...list] : [];
    if (inputRef.current) inputRef.current.value = '';
    if (picked.length === 0) return;
    attach.mutate(picked, {
      onSuccess: (added) =>
        notify.success(added.length === 1 ? `Attached ${added[0].name}` : `Attached ${added.length} files`),
      onError: (err) => notify.error('The files could not be attached.', serverDetail(err)),
    });
  };

  return (
    <div className="flex flex-wrap items-center gap-2">
      <input
        ref={inputRef}
        type="file"
        multiple
        hidden
        data-testid="attach-files-input"
        onChange={(e) => onPick(e.target.files)}
      />
      <Button
        type="button"
        variant="outline"
        size="sm"
        aria-label="Attach files"
        disabled={attach.isPending}
        onClick={() => inputRef.current?.click()}
      >
        <Paperclip aria-hidden="true" />
        {attach.isPending ? 'Uploading…' : 'Attach files'}
      </Button>
      {files.length > 0 && (
        <ul aria-label="Attached files" className="flex flex-wrap gap-1.5">
          {files.map((f) => (
            <li
              key={f.id}
              title={f.name}
              className="inline-flex max-w-56 items-center gap-1 rounded-full border bg-muted px-2.5 py-0.5 text-xs"
            >
              <FileText aria-hidden="true" className="size-3.5 shrink-0" />
              <span className="truncate">{f.name}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
