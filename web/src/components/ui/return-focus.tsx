import { type RefObject, useRef, useState } from 'react';

const IN_DIALOG = '[role="dialog"], [role="alertdialog"]';

/**
 * The element last focused outside every dialog: a dialog may open from a menu item that is gone by
 * then, or while focus is elsewhere for a moment. Tracked once for the page.
 */
let lastOutside: HTMLElement | null = null;
let tracking = false;
function track() {
  if (tracking || typeof document === 'undefined') return;
  tracking = true;
  document.addEventListener(
    'focusin',
    (e) => {
      const el = e.target;
      if (el instanceof HTMLElement && el !== document.body && !el.closest(IN_DIALOG)) lastOutside = el;
    },
    true,
  );
}

function currentOpener(): HTMLElement | null {
  const active = document.activeElement;
  return active instanceof HTMLElement && active !== document.body && !active.closest(IN_DIALOG)
    ? active
    : lastOutside;
}

/**
 * Rendered first inside a dialog's content: its first render is the moment the dialog opens, before
 * any field of it takes focus (React's autoFocus runs at commit, after this), so the focused element
 * is still the control that opened it. Radix's own open handler does not even run when a field took
 * focus first.
 */
function CaptureOpener({ into }: { into: RefObject<HTMLElement | null> }) {
  useState(() => {
    into.current = currentOpener();
    return null;
  });
  return null;
}

/**
 * Focus goes back to the control that opened a dialog. Radix returns it to its own Trigger only, and
 * most dialogs here are opened by a plain button with state (a row's Edit, a menu item): focus then
 * fell to the page's top. The opener is remembered when the dialog opens (`capture`, rendered inside
 * the content) and focused on close while it is still in the page; otherwise Radix's behaviour applies.
 */
export function useReturnFocus<E extends Event>(onCloseAutoFocus?: (e: E) => void) {
  track();
  const opener = useRef<HTMLElement | null>(null);
  return {
    capture: <CaptureOpener into={opener} />,
    onCloseAutoFocus: (e: E) => {
      onCloseAutoFocus?.(e);
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
