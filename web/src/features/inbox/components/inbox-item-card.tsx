import {
  approvingAnswerOf,
  INBOX_KIND_LABELS,
  INTERRUPTED_CALL_ANSWER_LABELS,
  INTERRUPTED_CALL_ANSWERS,
  type TInboxItem,
} from '@cc/contract';
import { Check, Clock, ExternalLink, Pencil, UserRoundPlus, X } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Markdown } from '../../../components/markdown/markdown';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent } from '../../../components/ui/card';
import { serverDetail } from '../../../lib/api';
import { notify } from '../../../lib/toast';
import { type InboxAction, useInboxAction } from '../api';
import { sourceLinkLabel, waitingFor } from '../inbox-age';
import { InboxDelegateDialog } from './inbox-delegate-dialog';
import { InboxEditDialog, isEditable } from './inbox-edit-dialog';
import { InboxRejectDialog } from './inbox-reject-dialog';

export const INBOX_ACTION_FAILED = 'Could not complete the action';
const DONE: Record<InboxAction['action'], string> = {
  approve: 'Approved',
  reject: 'Rejected',
  delegate: 'Delegated',
};

/** One waiting item: what it is, where it came from, what the AI based it on, its age, and the actions. */
export function InboxItemCard({ item }: { item: TInboxItem }) {
  const action = useInboxAction();
  const [dialog, setDialog] = useState<'edit' | 'reject' | 'delegate' | null>(null);
  const basedOn = typeof item.details.based_on === 'string' ? item.details.based_on : null;
  const runQuestion = item.kind === 'run_input';
  const prompt = typeof item.details.prompt === 'string' ? item.details.prompt : item.summary;
  // A run's question that asks for an approval is approved in one click: the server sends the answer
  // it names ("yes"). Any other question needs a written answer: Approve opens the answer form.
  const needsInput = runQuestion && approvingAnswerOf(prompt) === null;
  // An interrupted call is answered with one of three answers instead of approve / edit / reject.
  const interrupted = item.kind === 'interrupted_call';
  // What a tool call sends, shown as it will go out (a delegate decides exactly this).
  const body = item.details.body && typeof item.details.body === 'object' ? item.details.body : null;

  // mutateAsync, not mutate's callbacks: the inbox stream may reload the list and unmount this card
  // before the answer arrives, and mutate's callbacks do not run for an unmounted card (no toast).
  const run = (a: InboxAction, done = DONE[a.action]) =>
    action.mutateAsync(a).then(
      () => {
        setDialog(null);
        notify.success(done, item.title);
      },
      (err: Error) => notify.error(INBOX_ACTION_FAILED, serverDetail(err)),
    );

  return (
    <Card>
      <CardContent className="flex flex-col gap-3 pt-5">
        <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
          <Badge variant="secondary">{INBOX_KIND_LABELS[item.kind]}</Badge>
          <span className="inline-flex items-center gap-1">
            <Clock className="size-3.5" aria-hidden="true" />
            <span>
              Waiting <time dateTime={item.created_at}>{waitingFor(item.created_at)}</time>
            </span>
          </span>
          <Link to={item.source.url} className="inline-flex items-center gap-1 text-primary hover:underline">
            <ExternalLink className="size-3.5" aria-hidden="true" />
            {sourceLinkLabel(item.source.type)}
          </Link>
        </div>
        <h2 className="font-semibold break-words">{item.title}</h2>
        {item.summary && runQuestion ? (
          // A run's question and the output it asks about are written in markdown.
          <Markdown content={item.summary} className="text-sm break-words" />
        ) : item.summary ? (
          <p className="text-sm whitespace-pre-wrap break-words">{item.summary}</p>
        ) : null}
        {basedOn && runQuestion ? (
          <section
            aria-label="What the question is about"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
            tabIndex={0}
            className="max-h-64 overflow-y-auto rounded-md border border-border bg-muted/40 px-3 py-2 focus-visible:outline-2 focus-visible:outline-ring"
          >
            <Markdown content={basedOn} className="text-sm" />
          </section>
        ) : basedOn ? (
          <p className="rounded-md border border-border bg-muted/40 px-3 py-2 text-sm text-muted-foreground">
            <span className="font-medium text-foreground">Based on: </span>
            {basedOn}
          </p>
        ) : null}
        {body ? (
          <pre className="max-h-48 overflow-auto rounded-md border border-border bg-muted/40 p-2 text-xs">
            {JSON.stringify(body, null, 2)}
          </pre>
        ) : null}
        <div className="flex flex-wrap gap-2">
          {interrupted ? (
            INTERRUPTED_CALL_ANSWERS.map((answer) => (
              <Button
                key={answer}
                size="sm"
                variant={answer === 'stop' ? 'outline' : 'default'}
                disabled={action.isPending}
                onClick={() =>
                  run(
                    { id: item.id, action: 'approve', edits: { answer } },
                    INTERRUPTED_CALL_ANSWER_LABELS[answer],
                  )
                }
              >
                {INTERRUPTED_CALL_ANSWER_LABELS[answer]}
              </Button>
            ))
          ) : (
            <>
              <Button
                size="sm"
                disabled={action.isPending}
                onClick={() => (needsInput ? setDialog('edit') : run({ id: item.id, action: 'approve' }))}
              >
                <Check aria-hidden="true" />
                Approve
              </Button>
              {isEditable(item.kind) ? (
                <Button
                  size="sm"
                  variant="outline"
                  disabled={action.isPending}
                  onClick={() => setDialog('edit')}
                >
                  <Pencil aria-hidden="true" />
                  Edit
                </Button>
              ) : null}
              <Button
                size="sm"
                variant="outline"
                disabled={action.isPending}
                onClick={() => setDialog('reject')}
              >
                <X aria-hidden="true" />
                Reject
              </Button>
            </>
          )}
          <Button size="sm" variant="ghost" disabled={action.isPending} onClick={() => setDialog('delegate')}>
            <UserRoundPlus aria-hidden="true" />
            Delegate
          </Button>
        </div>
      </CardContent>
      <InboxEditDialog
        item={item}
        open={dialog === 'edit'}
        onOpenChange={(o) => setDialog(o ? 'edit' : null)}
        onApprove={(edits) => run({ id: item.id, action: 'approve', edits })}
        pending={action.isPending}
      />
      <InboxRejectDialog
        title={item.title}
        open={dialog === 'reject'}
        onOpenChange={(o) => setDialog(o ? 'reject' : null)}
        onReject={(reason) => run({ id: item.id, action: 'reject', reason })}
        pending={action.isPending}
      />
      <InboxDelegateDialog
        title={item.title}
        open={dialog === 'delegate'}
        onOpenChange={(o) => setDialog(o ? 'delegate' : null)}
        onDelegate={(userId) => run({ id: item.id, action: 'delegate', user_id: userId })}
        pending={action.isPending}
      />
    </Card>
  );
}
