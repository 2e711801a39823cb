import type { TModelSettingSource, TProviderKeyState } from '@cc/contract';

/** How a write-only key is shown: whether it is set and its last four characters, never the key. */
export function keyStatus(key: TProviderKeyState): string {
  if (key.unreadable)
    return "Stored, but it cannot be opened with this server's SECRETS_KEY: enter it again.";
  if (!key.set) return 'No key';
  return key.last4 ? `Key set, ending in …${key.last4}` : 'Key set';
}

/** The read-only line of a provider the environment sets. */
export function EnvironmentRow({ variable, children }: { variable: string; children: React.ReactNode }) {
  return (
    <p
      className="rounded-md border border-border border-dashed px-3 py-2 text-sm"
      data-testid="environment-row"
    >
      <span className="font-medium">From the environment ({variable}):</span> {children}{' '}
      <span className="text-muted-foreground">Read-only here: change it in the server's environment.</span>
    </p>
  );
}

export const fromEnvironment = (source: TModelSettingSource | null) => source === 'environment';
