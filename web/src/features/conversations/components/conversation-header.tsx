import { Pencil, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { notify } from '../../../lib/toast';
import { type Conversation, useDeleteConversation, useRenameConversation } from '../api';
import type { RenderRunControls } from '../run-controls-seam';

export const DELETE_CONFIRMATION =
  'Are you sure you want to delete this conversation? This action cannot be undone.';

/** The title (click to rename inline), delete with the spec's confirmation, and the run-controls seam. */
export function ConversationHeader({
  conversation,
  replying,
  renderRunControls,
}: {
  conversation: Conversation;
  replying: boolean;
  renderRunControls?: RenderRunControls;
}) {
  const navigate = useNavigate();
  const rename = useRenameConversation();
  const remove = useDeleteConversation();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(conversation.name);
  const [confirming, setConfirming] = useState(false);

  const startEdit = () => {
    setDraft(conversation.name);
    setEditing(true);
  };

  // Renaming needs a non-empty, changed title; anything else just leaves edit mode.
  const save = (e?: FormEvent) => {
    e?.preventDefault();
    const name = draft.trim();
    setEditing(false);
    if (!name || name === conversation.name) return;
    rename.mutate(
      { id: conversation.id, name },
      { onError: () => notify.error('Error', 'Failed to rename conversation.') },
    );
  };

  const onDelete = () => {
    remove.mutate(conversation.id, {
      onSuccess: () => {
        setConfirming(false);
        notify.success('Conversation Deleted');
        navigate('/app/run', { replace: true });
      },
      onError: () => {
        setConfirming(false);
        notify.error('Error', 'Failed to delete conversation.');
      },
    });
  };

  const shownName = rename.isPending ? (rename.variables?.name ?? conversation.name) : conversation.name;

  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <div className="flex min-w-0 flex-1 items-center gap-2">
        {editing ? (
          <form onSubmit={save} className="flex min-w-0 flex-1">
            <label htmlFor="conversation-title" className="sr-only">
              Conversation title
            </label>
            <Input
              id="conversation-title"
              autoFocus
              value={draft}
              maxLength={200}
              onChange={(e) => setDraft(e.target.value)}
              onBlur={() => save()}
              onKeyDown={(e) => {
                if (e.key === 'Escape') {
                  e.preventDefault();
                  setEditing(false);
                }
              }}
              className="h-9 text-lg font-semibold"
            />
          </form>
        ) : (
          <h1 className="min-w-0 truncate text-xl font-semibold tracking-tight sm:text-2xl">
            <button
              type="button"
              onClick={startEdit}
              className="group inline-flex max-w-full items-center gap-2 rounded-md text-left focus-visible:outline-2 focus-visible:outline-ring"
              title="Rename conversation"
            >
              <span className="truncate">{shownName}</span>
              <Pencil
                aria-hidden="true"
                className="size-4 shrink-0 text-muted-foreground opacity-60 group-hover:opacity-100"
              />
              <span className="sr-only">(rename)</span>
            </button>
          </h1>
        )}
      </div>
      <div className="flex items-center gap-2">
        {renderRunControls?.({ conversationId: conversation.id, placement: 'header', replying })}
        <Button variant="outline" size="sm" onClick={() => setConfirming(true)}>
          <Trash2 aria-hidden="true" />
          Delete
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete conversation"
        description={DELETE_CONFIRMATION}
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={onDelete}
      />
    </div>
  );
}
