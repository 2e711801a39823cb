import type { TBrief } from '@cc/contract';
import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { CitationChips } from '../../../components/citation-chips';
import { formatDateTime } from '../../../lib/format';

export const SUMMARY_REPLACED_TEXT =
  'The written summary named a number that is not in the facts, so the facts speak for themselves.';
export const NOT_DELIVERED_TEXT = 'not delivered';

/** Whether the brief was e-mailed: shown only when e-mail is set up. */
export function DeliveryNote({ brief }: { brief: TBrief }) {
  if (brief.delivery.status === 'sent') return <Badge variant="success">E-mailed</Badge>;
  if (brief.delivery.status === 'not_delivered')
    return (
      <Badge variant="danger" className="whitespace-normal" title={brief.delivery.reason ?? undefined}>
        {NOT_DELIVERED_TEXT}
        {brief.delivery.reason ? `: ${brief.delivery.reason}` : ''}
      </Badge>
    );
  return null;
}

/** One brief: summary, the top actions (each opens its record) and the facts with their sources. */
export function BriefView({ brief }: { brief: TBrief }) {
  return (
    <article className="flex flex-col gap-6" aria-label="Brief">
      <header className="flex flex-col gap-2">
        <p className="text-sm text-muted-foreground">
          {formatDateTime(brief.period_start)} – {formatDateTime(brief.period_end)}
          {brief.trigger === 'scheduled' ? ' · scheduled' : ''}
        </p>
        <p className="whitespace-pre-line">{brief.summary}</p>
        {brief.summary_status === 'replaced' ? <Alert variant="info">{SUMMARY_REPLACED_TEXT}</Alert> : null}
        <div>
          <DeliveryNote brief={brief} />
        </div>
      </header>
      {brief.actions.length ? (
        <section aria-labelledby={`actions-${brief.id}`} className="flex flex-col gap-2">
          <h2 id={`actions-${brief.id}`} className="text-lg font-semibold">
            Top actions
          </h2>
          <ol className="flex flex-col gap-2">
            {brief.actions.map((a) => (
              <li key={a.text}>
                {a.citations[0] ? (
                  <Link
                    to={a.citations[0].url}
                    className="inline-flex items-center gap-1 font-medium hover:underline"
                  >
                    {a.text}
                    <ArrowRight className="size-4" aria-hidden="true" />
                  </Link>
                ) : (
                  a.text
                )}
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      {brief.sections.map((s) => (
        <section key={s.key} aria-labelledby={`${s.key}-${brief.id}`} className="flex flex-col gap-2">
          <h2 id={`${s.key}-${brief.id}`} className="text-lg font-semibold">
            {s.title}
          </h2>
          <ul className="flex flex-col gap-3">
            {s.items.map((item, i) => (
              <li key={`${s.key}-${i}`} className={s.enough_data ? undefined : 'text-muted-foreground'}>
                {item.text}
                {/* A line with no record ("Not enough data", an empty list) shows no chips. */}
                {item.citations.length ? <CitationChips citations={item.citations} /> : null}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </article>
  );
}
