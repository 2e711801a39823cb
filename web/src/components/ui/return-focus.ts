import { useRef } from 'react';

/**
 * Focus goes back to the control that opened a dialog. Radix returns it to its own Trigger only, and
 * most dialogs here are opened by a plain button with state (a row's Edit, a menu item): focus then
 * fell to the page's top. The element focused when the dialog opened is remembered and focused on
 * close while it is still in the page; otherwise Radix's own behaviour applies.
 */
export function useReturnFocus<E extends Event>(handlers: {
  onOpenAutoFocus?: (e: E) => void;
  onCloseAutoFocus?: (e: E) => void;
}) {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: (e: E) => {
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
      handlers.onOpenAutoFocus?.(e);
    },
    onCloseAutoFocus: (e: E) => {
      handlers.onCloseAutoFocus?.(e);
      if (e.defaultPrevented) return;
      const el = opener.current;
      opener.current = null;
      if (el?.isConnected) {
        e.preventDefault();
        el.focus();
      }
    },
  };
}
