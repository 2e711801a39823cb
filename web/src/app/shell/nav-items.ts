import {
  Bot,
  FolderOpen,
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
}

/** The top-bar links (spec section 2), in order. Factory is for ceo and admin only. */
export const NAV_ITEMS: NavItem[] = [
  { to: '/app/ceodashboard', label: 'Dashboard', icon: LayoutDashboard },
  { to: '/app/strategy', label: 'Strategy', icon: Target },
  { to: '/app/my-tasks', label: 'Tasks', icon: ListTodo },
  { to: '/app/run', label: 'Run', icon: Play },
  { to: '/app/notes', label: 'Notes', icon: NotebookPen },
  { to: '/app/files', label: 'Files', icon: FolderOpen },
  { to: '/app/comms', label: 'Comms', icon: MessagesSquare },
  { to: '/app/contacts', label: 'Contacts', icon: Users },
  { to: '/app/ai-factory', label: 'Factory', icon: Bot, levels: FACTORY_LEVELS },
];

export function navItemsFor(level: string | undefined): NavItem[] {
  return NAV_ITEMS.filter((item) => !item.levels || hasLevel(level, item.levels));
}
