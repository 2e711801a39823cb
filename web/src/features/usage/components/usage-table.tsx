import type { TUsageRow } from '@cc/contract';
import type { ReactNode } from 'react';
import { usd } from '../money';

/** One dimension of the month's spend: a row per person, organization, model or feature. */
export function UsageTable({
  title,
  rows,
  extra,
}: {
  title: string;
  rows: TUsageRow[];
  /** A column of its own per row (the budget editors). */
  extra?: { header: string; cell: (row: TUsageRow) => ReactNode };
}) {
  return (
    <section aria-label={title} className="flex flex-col gap-2">
      <h3 className="font-semibold text-sm">{title}</h3>
      {rows.length === 0 ? (
        <p className="text-muted-foreground text-sm">No AI usage in this period.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="text-muted-foreground text-xs">
              <tr>
                <th className="py-1 pr-3 font-medium">Name</th>
                <th className="py-1 pr-3 text-right font-medium">Calls</th>
                <th className="py-1 pr-3 text-right font-medium">Tokens in / out</th>
                <th className="py-1 pr-3 text-right font-medium">Cost</th>
                {extra ? <th className="py-1 font-medium">{extra.header}</th> : null}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.key || '-'} className="border-border border-t">
                  <td className="py-1.5 pr-3">{r.label}</td>
                  <td className="py-1.5 pr-3 text-right tabular-nums">{r.calls}</td>
                  <td className="py-1.5 pr-3 text-right tabular-nums">
                    {r.input_tokens.toLocaleString()} / {r.output_tokens.toLocaleString()}
                  </td>
                  <td className="py-1.5 pr-3 text-right tabular-nums">{usd(r.cost_usd)}</td>
                  {extra ? <td className="py-1.5">{r.key ? extra.cell(r) : null}</td> : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
