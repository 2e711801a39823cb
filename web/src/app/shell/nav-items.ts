import {
  Bot,
  FolderOpen,
  Inbox,
  LayoutDashboard,
  ListTodo,
  type LucideIcon,
  MessagesSquare,
  NotebookPen,
  Play,
  Target,
  Users,
} from 'lucide-react';
import { FACTORY_LEVELS, hasLevel } from '../../lib/access';

export interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
  /** User levels that see the link; all signed-in users when absent. */
  levels?: readonly string[];
  /** Other paths (with what lies below them) that belong to this link's section. */
  section?: readonly string[];
  /** A live count shown beside the label. */
  count?: 'inbox';
}

/** The top-bar links (spec section 2), in order. Factory is for ceo and admin only. */
export const NAV_ITEMS: NavItem[] = [
  { to: '/app/ceodashboard', label: 'Dashboard', icon: LayoutDashboard },
  { to: '/app/strategy', label: 'Strategy', icon: Target },
  { to: '/app/my-tasks', label: 'Tasks', icon: ListTodo },
  // Shows the live count of what waits for the signed-in person (app-shell, mobile-nav).
  { to: '/app/inbox', label: 'Inbox', icon: Inbox, count: 'inbox' },
  // A conversation and a test run are opened from Run: the top bar keeps Run highlighted there.
  { to: '/app/run', label: 'Run', icon: Play, section: ['/app/conversations', '/app/test-run'] },
  { to: '/app/notes', label: 'Notes', icon: NotebookPen },
  { to: '/app/files', label: 'Files', icon: FolderOpen },
  { to: '/app/comms', label: 'Comms', icon: MessagesSquare },
  { to: '/app/contacts', label: 'Contacts', icon: Users },
  { to: '/app/ai-factory', label: 'Factory', icon: Bot, levels: FACTORY_LEVELS },
];

const under = (pathname: string, path: string) => pathname === path || pathname.startsWith(`${path}/`);

/** Whether the link is the current section's: its own path or one of its `section` paths. */
export function isNavItemActive(item: NavItem, pathname: string): boolean {
  return [item.to, ...(item.section ?? [])].some((p) => under(pathname, p));
}

export function navItemsFor(level: string | undefined): NavItem[] {
  return NAV_ITEMS.filter((item) => !item.levels || hasLevel(level, item.levels));
}
