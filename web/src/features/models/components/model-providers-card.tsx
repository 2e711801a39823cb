import { Alert } from '../../../components/ui/alert';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { serverDetail } from '../../../lib/api';
import { useModelProviders } from '../api';
import { ApiKeyField } from './api-key-field';
import { CompatibleProviderForm } from './compatible-provider-form';
import { DefaultModelField } from './default-model-field';

/**
 * Super Admin → Models: the providers the AI uses (keys sealed on the server and never shown again),
 * the default model; rows the server's environment sets are read-only and win.
 */
export function ModelProvidersCard() {
  const providers = useModelProviders();
  return (
    <Card role="region" className="flex flex-col gap-5 p-4 sm:p-5" aria-labelledby="model-providers-title">
      <h2 id="model-providers-title" className="font-semibold text-lg">
        Model providers
      </h2>
      {providers.isPending ? (
        <Skeleton className="h-40 w-full" />
      ) : providers.isError ? (
        <Alert>{serverDetail(providers.error) ?? 'The model providers could not be loaded.'}</Alert>
      ) : (
        <>
          {providers.data.offline ? (
            <Alert variant="info">
              No model is connected: every AI feature answers with the built-in offline engine. Add a provider
              or a key below.
            </Alert>
          ) : null}
          <CompatibleProviderForm state={providers.data.compatible} />
          <ApiKeyField
            title="OpenAI"
            field="openai_api_key"
            variable="OPENAI_API_KEY"
            state={providers.data.openai}
          />
          <ApiKeyField
            title="Gemini"
            field="google_api_key"
            variable="GOOGLE_GENERATIVE_AI_API_KEY"
            state={providers.data.google}
          />
          <DefaultModelField state={providers.data.default_model} />
        </>
      )}
    </Card>
  );
}
