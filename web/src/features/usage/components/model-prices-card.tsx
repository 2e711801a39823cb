import type { TModelPrices, TModelPriceTable } from '@cc/contract';
import { type FormEvent, useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Skeleton } from '../../../components/ui/skeleton';
import { serverDetail } from '../../../lib/api';
import { notify } from '../../../lib/toast';
import { useModelPrices, useSaveModelPrices } from '../api';

interface Row {
  model: string;
  input: string;
  output: string;
  priced: boolean;
  /** null: a built-in model, always offered */
  offered: boolean | null;
}

function rowsOf(t: TModelPriceTable): Row[] {
  const endpoint = new Set(t.endpoint_models);
  const offered = new Set(t.offered_models);
  return t.models.map((m) => ({
    model: m.model,
    // An unpriced model's field stays blank, so saving the table does not price it at $0.
    input: m.priced ? String(m.input_per_million_usd) : '',
    output: m.priced ? String(m.output_per_million_usd) : '',
    priced: m.priced,
    offered: endpoint.has(m.model) ? offered.has(m.model) : null,
  }));
}

/** '' → null (not given); a valid amount → the number; anything else → NaN. */
const amount = (v: string) => (v.trim() === '' ? null : Number(v.trim()));
const valid = (n: number | null) => n === null || (Number.isFinite(n) && n >= 0);

/**
 * Super Admin → Models: what each model costs (USD per million tokens), which of the
 * OpenAI-compatible endpoint's models members may use, and the default price of endpoint models
 * nobody priced (without one, such a model is refused wherever a budget applies).
 */
export function ModelPricesCard() {
  const table = useModelPrices();
  const save = useSaveModelPrices();
  const [rows, setRows] = useState<Row[]>([]);
  const [defaultInput, setDefaultInput] = useState('');
  const [defaultOutput, setDefaultOutput] = useState('');
  useEffect(() => {
    if (!table.data) return;
    setRows(rowsOf(table.data));
    setDefaultInput(table.data.default_price ? String(table.data.default_price.input_per_million_usd) : '');
    setDefaultOutput(table.data.default_price ? String(table.data.default_price.output_per_million_usd) : '');
  }, [table.data]);

  const update = (model: string, change: Partial<Row>) =>
    setRows((rs) => rs.map((r) => (r.model === model ? { ...r, ...change } : r)));

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const models: TModelPrices['models'] = [];
    for (const r of rows) {
      const input = amount(r.input);
      const output = amount(r.output);
      if (!valid(input) || !valid(output) || (input === null) !== (output === null)) {
        notify.error(
          'Invalid Price',
          `${r.model}: enter both prices in dollars per million tokens, or neither.`,
        );
        return;
      }
      if (input !== null && output !== null)
        models.push({ model: r.model, input_per_million_usd: input, output_per_million_usd: output });
    }
    const dIn = amount(defaultInput);
    const dOut = amount(defaultOutput);
    if (!valid(dIn) || !valid(dOut) || (dIn === null) !== (dOut === null)) {
      notify.error('Invalid Default Price', 'Enter both default prices, or leave both blank for none.');
      return;
    }
    save.mutate(
      {
        models,
        offered_models: rows.filter((r) => r.offered).map((r) => r.model),
        default_price:
          dIn === null || dOut === null ? null : { input_per_million_usd: dIn, output_per_million_usd: dOut },
      },
      {
        onSuccess: () => notify.success('Models Saved', 'Prices and offered models updated.'),
        onError: (err) => notify.error('Save Failed', serverDetail(err) ?? 'Could not save the models.'),
      },
    );
  };

  return (
    <Card role="region" className="flex flex-col gap-4 p-4 sm:p-5" aria-labelledby="model-prices-title">
      <h2 id="model-prices-title" className="font-semibold text-lg">
        Models and prices
      </h2>
      {table.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : table.isError ? (
        <p className="text-muted-foreground text-sm">
          {serverDetail(table.error) ?? 'The model prices could not be loaded.'}
        </p>
      ) : (
        <form onSubmit={onSubmit} className="flex flex-col gap-4">
          <p className="text-muted-foreground text-sm">
            USD per million tokens. Endpoint models are offered to members only when ticked; one without a
            price uses the default price, and without that it is refused wherever a budget applies.
          </p>
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <thead>
                <tr className="text-left text-muted-foreground">
                  <th className="py-1 pr-3 font-medium">Model</th>
                  <th className="py-1 pr-3 font-medium">Input</th>
                  <th className="py-1 pr-3 font-medium">Output</th>
                  <th className="py-1 font-medium">Offered</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.model} className="border-t">
                    <td className="py-1 pr-3">
                      {r.model}
                      {!r.priced && r.input === '' && (
                        <span className="ml-2 text-muted-foreground text-xs">not priced</span>
                      )}
                    </td>
                    <td className="py-1 pr-3">
                      <Input
                        aria-label={`Input price of ${r.model}`}
                        inputMode="decimal"
                        value={r.input}
                        onChange={(e) => update(r.model, { input: e.target.value })}
                        className="h-8 w-24"
                      />
                    </td>
                    <td className="py-1 pr-3">
                      <Input
                        aria-label={`Output price of ${r.model}`}
                        inputMode="decimal"
                        value={r.output}
                        onChange={(e) => update(r.model, { output: e.target.value })}
                        className="h-8 w-24"
                      />
                    </td>
                    <td className="py-1">
                      {r.offered === null ? (
                        <span className="text-muted-foreground text-xs">Always</span>
                      ) : (
                        <input
                          type="checkbox"
                          aria-label={`Offer ${r.model}`}
                          checked={r.offered}
                          onChange={(e) => update(r.model, { offered: e.target.checked })}
                        />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <fieldset className="flex flex-wrap items-end gap-2">
            <legend className="mb-1 text-muted-foreground text-xs">
              Default price of unpriced endpoint models
            </legend>
            <Input
              aria-label="Default input price"
              inputMode="decimal"
              placeholder="None"
              value={defaultInput}
              onChange={(e) => setDefaultInput(e.target.value)}
              className="h-8 w-24"
            />
            <Input
              aria-label="Default output price"
              inputMode="decimal"
              placeholder="None"
              value={defaultOutput}
              onChange={(e) => setDefaultOutput(e.target.value)}
              className="h-8 w-24"
            />
          </fieldset>
          <div>
            <Button type="submit" size="sm" disabled={save.isPending}>
              Save models
            </Button>
          </div>
        </form>
      )}
    </Card>
  );
}
