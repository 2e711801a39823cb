import type { TModelProviders } from '@cc/contract';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { serverDetail } from '../../../lib/api';
import { notify } from '../../../lib/toast';
import { useSaveModelProviders, useTestModelProvider } from '../api';
import { EnvironmentRow, keyStatus } from './key-status';

type Compatible = TModelProviders['compatible'];

/**
 * An OpenAI-compatible endpoint (Ollama, vLLM, LM Studio, a gateway): base URL and key, a Test button
 * listing the endpoint's models, Save and Remove. A blank key keeps the stored one while the URL stays.
 */
export function CompatibleProviderForm({ state }: { state: Compatible }) {
  const id = useId();
  const save = useSaveModelProviders();
  const test = useTestModelProvider();
  const [baseUrl, setBaseUrl] = useState(state.base_url ?? '');
  const [apiKey, setApiKey] = useState('');
  useEffect(() => setBaseUrl(state.base_url ?? ''), [state.base_url]);

  const typed = () => ({ base_url: baseUrl.trim(), ...(apiKey.trim() ? { api_key: apiKey.trim() } : {}) });
  const onTest = () => {
    if (!baseUrl.trim()) {
      notify.error('Base URL Required', 'Enter the base URL to test, e.g. http://localhost:11434/v1.');
      return;
    }
    test.mutate(typed());
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!baseUrl.trim()) {
      notify.error('Base URL Required', 'Enter the base URL to save, e.g. http://localhost:11434/v1.');
      return;
    }
    save.mutate(
      { compatible: typed() },
      {
        onSuccess: () => {
          setApiKey('');
          notify.success('Models Saved', 'The OpenAI-compatible provider is saved.');
        },
        onError: (err) => notify.error('Save Failed', serverDetail(err) ?? 'Could not save the provider.'),
      },
    );
  };
  const onRemove = () =>
    save.mutate(
      { compatible: null },
      {
        onSuccess: () => {
          setApiKey('');
          test.reset();
          notify.success('Models Saved', 'The OpenAI-compatible provider is removed.');
        },
        onError: (err) => notify.error('Save Failed', serverDetail(err) ?? 'Could not remove the provider.'),
      },
    );

  return (
    <section className="flex flex-col gap-2" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="font-medium">
        OpenAI-compatible provider
      </h3>
      {state.source === 'environment' ? (
        <EnvironmentRow variable="OPENAI_BASE_URL">
          {state.base_url} — {keyStatus(state.key)}.
        </EnvironmentRow>
      ) : (
        <form onSubmit={onSubmit} className="flex flex-col gap-3">
          <div className="grid gap-3 sm:grid-cols-2">
            <div className="flex flex-col gap-1.5">
              <Label htmlFor={`${id}-url`}>Base URL</Label>
              <Input
                id={`${id}-url`}
                inputMode="url"
                autoComplete="off"
                placeholder="http://localhost:11434/v1"
                value={baseUrl}
                onChange={(e) => setBaseUrl(e.target.value)}
              />
            </div>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor={`${id}-key`}>API key</Label>
              <Input
                id={`${id}-key`}
                type="password"
                autoComplete="off"
                placeholder={state.key.set ? 'Leave blank to keep the stored key' : 'None, or paste the key'}
                value={apiKey}
                onChange={(e) => setApiKey(e.target.value)}
              />
              <p className="text-muted-foreground text-xs">{keyStatus(state.key)}</p>
            </div>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" size="sm" onClick={onTest} disabled={test.isPending}>
              {test.isPending ? 'Testing…' : 'Test'}
            </Button>
            <Button type="submit" size="sm" disabled={save.isPending}>
              Save provider
            </Button>
            {state.source === 'settings' ? (
              <Button variant="outline" size="sm" onClick={onRemove} disabled={save.isPending}>
                Remove provider
              </Button>
            ) : null}
          </div>
          {test.isError ? (
            <Alert>{serverDetail(test.error) ?? 'The test failed.'}</Alert>
          ) : test.data ? (
            <Alert variant="success" data-testid="provider-test-models">
              {test.data.models.length === 0 ? (
                'The endpoint answers, but lists no models.'
              ) : (
                <>
                  The endpoint lists{' '}
                  {test.data.models.length === 1 ? '1 model' : `${test.data.models.length} models`}:
                  <ul className="mt-1 list-disc pl-5">
                    {test.data.models.map((m) => (
                      <li key={m}>{m}</li>
                    ))}
                  </ul>
                </>
              )}
            </Alert>
          ) : null}
        </form>
      )}
    </section>
  );
}
