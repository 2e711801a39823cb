import { Building2, History, LogOut, Menu, ShieldCheck, UserRound, X } from 'lucide-react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { useState } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { Brand } from '../../components/brand';
import { useAuth } from '../../lib/auth';
import { cn } from '../../lib/utils';
import { ADMIN_LEVELS, hasLevel } from '../../lib/access';
import { NavCountBadge } from './nav-count-badge';
import { isNavItemActive, type NavItem } from './nav-items';

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'flex items-center gap-3 rounded-md px-3 py-2.5 text-sm font-medium transition-colors',
    isActive ? 'bg-muted text-foreground' : 'text-muted-foreground hover:bg-muted/60 hover:text-foreground',
  );

/** The drawer that carries the same navigation on narrow screens. */
export function MobileNav({ items }: { items: NavItem[] }) {
  const [open, setOpen] = useState(false);
  const { user, signOut } = useAuth();
  const navigate = useNavigate();
  const isAdmin = !!user && hasLevel(user.user_level, ADMIN_LEVELS);
  const close = () => setOpen(false);
  const { pathname } = useLocation();

  const accountLinks = [
    { to: '/app/profile', label: 'Profile', icon: UserRound },
    { to: '/app/organization', label: 'Organization', icon: Building2 },
    { to: '/app/activity', label: 'Activity', icon: History },
    ...(isAdmin ? [{ to: '/app/admin', label: 'Super Admin', icon: ShieldCheck }] : []),
  ];

  return (
    <DialogPrimitive.Root open={open} onOpenChange={setOpen}>
      <DialogPrimitive.Trigger
        className="grid size-10 place-items-center rounded-md text-foreground hover:bg-muted md:hidden"
        aria-label="Open navigation menu"
      >
        <Menu className="size-5" aria-hidden="true" />
      </DialogPrimitive.Trigger>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-[#02050c]/75 data-[state=open]:animate-fade-in md:hidden" />
        <DialogPrimitive.Content className="fixed inset-y-0 left-0 z-50 flex w-[min(20rem,85vw)] flex-col gap-4 overflow-y-auto border-r border-border bg-card p-4 shadow-2xl data-[state=open]:animate-slide-in-left md:hidden">
          <div className="flex items-center justify-between">
            <DialogPrimitive.Title asChild>
              <h2>
                <Brand />
              </h2>
            </DialogPrimitive.Title>
            <DialogPrimitive.Close
              className="grid size-9 place-items-center rounded-md text-muted-foreground hover:bg-muted hover:text-foreground"
              aria-label="Close navigation menu"
            >
              <X className="size-5" aria-hidden="true" />
            </DialogPrimitive.Close>
          </div>
          <DialogPrimitive.Description className="sr-only">
            Navigate the command centre
          </DialogPrimitive.Description>
          <nav aria-label="Mobile" className="flex flex-col gap-1">
            {items.map((item) => (
              <Link
                key={item.to}
                to={item.to}
                aria-current={isNavItemActive(item, pathname) ? 'page' : undefined}
                className={linkClass({ isActive: isNavItemActive(item, pathname) })}
                onClick={close}
              >
                <item.icon className="size-4" aria-hidden="true" />
                {item.label}
                {item.count ? <NavCountBadge item={item} /> : null}
              </Link>
            ))}
          </nav>
          <div className="h-px bg-border" />
          <nav aria-label="Account" className="flex flex-col gap-1">
            {accountLinks.map((item) => (
              <NavLink key={item.to} to={item.to} className={linkClass} onClick={close}>
                <item.icon className="size-4" aria-hidden="true" />
                {item.label}
              </NavLink>
            ))}
            <button
              type="button"
              className="flex items-center gap-3 rounded-md px-3 py-2.5 text-left text-sm font-medium text-muted-foreground transition-colors hover:bg-muted/60 hover:text-foreground"
              onClick={() => {
                close();
                signOut();
                navigate('/login', { replace: true });
              }}
            >
              <LogOut className="size-4" aria-hidden="true" />
              Logout
            </button>
          </nav>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
