import { useInboxCount } from '../../lib/queries/inbox';
import type { NavItem } from './nav-items';

/** The live count beside a link (the Inbox's waiting items); nothing when zero or not loaded. */
export function NavCountBadge({ item }: { item: NavItem }) {
  const inbox = useInboxCount();
  if (item.count !== 'inbox') return null;
  const n = inbox.data?.count ?? 0;
  if (n <= 0) return null;
  // The link reads "Inbox, 3 waiting" to assistive technologies; the badge shows the number.
  return (
    <>
      <span
        aria-hidden="true"
        className="ml-1 inline-flex min-w-5 items-center justify-center rounded-full bg-primary px-1.5 text-xs font-semibold text-primary-foreground"
      >
        {n > 99 ? '99+' : n}
      </span>
      <span className="sr-only">, {n} waiting</span>
    </>
  );
}
