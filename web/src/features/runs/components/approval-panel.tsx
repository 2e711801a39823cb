import { APPROVAL_REASON_REQUIRED } from '@cc/contract';
import { ShieldAlert } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';
import type { PendingApproval } from '../run-state';

export const APPROVAL_NEEDED = 'Approval needed';
export const APPROVAL_EXPLAINED = 'The run paused before this call. Nothing is sent until you approve it.';
export const ARGUMENTS_INVALID = 'The arguments must be a JSON object';

type Mode = 'view' | 'edit' | 'reject';

const pretty = (v: unknown) => JSON.stringify(v ?? {}, null, 2);

/**
 * The exact tool call a run waits on (tool, method, destination, headers without secrets, body) with
 * Approve, Edit (change the arguments, then approve) and Reject (a reason is required; the agent gets
 * it as the tool's result).
 */
export function ApprovalPanel({
  approval,
  pending,
  onApprove,
  onReject,
}: {
  approval: PendingApproval;
  pending: boolean;
  onApprove: (args?: Record<string, unknown>) => void;
  onReject: (reason: string) => void;
}) {
  const id = useId();
  const [mode, setMode] = useState<Mode>('view');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const headers = Object.entries(approval.headers);

  const open = (next: Mode) => {
    setMode(next);
    setError(null);
    setText(next === 'edit' ? pretty(approval.arguments) : '');
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (mode === 'reject') {
      if (!text.trim()) return setError(APPROVAL_REASON_REQUIRED);
      return onReject(text.trim());
    }
    const parsed = parseObject(text);
    if (!parsed) return setError(ARGUMENTS_INVALID);
    onApprove(parsed);
  };

  return (
    <section
      aria-label={APPROVAL_NEEDED}
      className="flex flex-col gap-2 rounded-lg border border-[#854d0e] bg-[#2d1f05]/60 p-3 text-sm"
    >
      <h3 className="flex items-center gap-2 font-medium text-[#fcd34d]">
        <ShieldAlert aria-hidden="true" className="size-4" />
        {APPROVAL_NEEDED}: {approval.tool}
      </h3>
      <p className="text-xs text-muted-foreground">{APPROVAL_EXPLAINED}</p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="text-muted-foreground">Method</dt>
        <dd className="font-mono">{approval.method}</dd>
        <dt className="text-muted-foreground">Destination</dt>
        <dd className="font-mono break-all">{approval.url}</dd>
        <dt className="text-muted-foreground">Headers</dt>
        <dd className="font-mono break-all">
          {headers.length ? headers.map(([k, v]) => <div key={k}>{`${k}: ${v}`}</div>) : 'none'}
        </dd>
      </dl>
      {approval.body ? (
        <div className="flex flex-col gap-1">
          <span className="text-muted-foreground">Body</span>
          <pre className="max-h-48 overflow-auto rounded-md border border-border bg-card p-2 text-xs">
            {pretty(approval.body)}
          </pre>
        </div>
      ) : null}
      {mode === 'view' ? (
        <div className="flex flex-wrap justify-end gap-2">
          <Button type="button" size="sm" variant="ghost" disabled={pending} onClick={() => open('reject')}>
            Reject
          </Button>
          <Button type="button" size="sm" variant="secondary" disabled={pending} onClick={() => open('edit')}>
            Edit
          </Button>
          <Button type="button" size="sm" disabled={pending} onClick={() => onApprove()}>
            {pending ? <Spinner /> : null}
            Approve
          </Button>
        </div>
      ) : (
        <form onSubmit={submit} noValidate className="flex flex-col gap-2">
          <label htmlFor={id} className="font-medium">
            {mode === 'edit' ? 'Arguments (JSON)' : 'Reason for rejecting'}
          </label>
          <Textarea
            id={id}
            value={text}
            rows={mode === 'edit' ? 6 : 2}
            className={mode === 'edit' ? 'font-mono text-xs' : undefined}
            aria-invalid={error ? true : undefined}
            onChange={(e) => {
              setText(e.target.value);
              if (error) setError(null);
            }}
          />
          {error ? (
            <p role="alert" className="text-xs font-medium text-danger-text">
              {error}
            </p>
          ) : null}
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" size="sm" variant="ghost" disabled={pending} onClick={() => open('view')}>
              Cancel
            </Button>
            <Button
              type="submit"
              size="sm"
              variant={mode === 'reject' ? 'destructive' : 'default'}
              disabled={pending}
            >
              {pending ? <Spinner /> : null}
              {mode === 'edit' ? 'Approve with edits' : 'Reject call'}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
