import { useCallback, useState } from 'react';

/**
 * A form's validation message that goes away once its problem is fixed: Save shows the first
 * problem `validate` finds, and from then on each render checks the current values again — when
 * they no longer have that problem the message disappears, without waiting for the next Save.
 * (A different problem waits for the next Save, so fixing one field never flashes another message.)
 */
export function useValidationMessage(validate: () => string | null) {
  const [shown, setShown] = useState<string | null>(null);
  const message = shown !== null && validate() === shown ? shown : null;
  // Stable, so a dialog can clear the message in an effect when it opens.
  const clear = useCallback(() => setShown(null), []);
  return {
    message,
    /** On Save: the problem to show (shown now), or null when the form may be sent. */
    check(): string | null {
      const problem = validate();
      setShown(problem);
      return problem;
    },
    clear,
  };
}
