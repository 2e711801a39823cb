import { Alert } from './ui/alert';
import { Button } from './ui/button';

/** The spec's words for a save refused because the record changed meanwhile (412). */
export const STALE_VERSION_MESSAGE = 'This item was changed by someone else';

interface StaleVersionBannerProps {
  /** The fresh version's fields, as label and shown value. */
  fields: readonly (readonly [string, string | null | undefined])[];
  /** Replace the typed values with the fresh version's. */
  onUseTheirs: () => void;
}

/**
 * Shown in an edit dialog whose save was refused: the fresh version beside the form, whose typed
 * values stay as they are. Saving again applies them on top of the fresh version.
 */
export function StaleVersionBanner({ fields, onUseTheirs }: StaleVersionBannerProps) {
  return (
    <Alert variant="info" role="alert" data-testid="stale-version">
      <p className="font-medium">{STALE_VERSION_MESSAGE}</p>
      <p className="mt-1">
        Their version is below. Your changes are kept in the form: save again to apply them on top of it, or
        use theirs.
      </p>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        {fields.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="whitespace-pre-wrap break-words">{value || '—'}</dd>
          </div>
        ))}
      </dl>
      <Button type="button" variant="outline" size="sm" className="mt-3" onClick={onUseTheirs}>
        Use their version
      </Button>
    </Alert>
  );
}
