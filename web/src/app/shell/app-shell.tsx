import { Suspense } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { Brand } from '../../components/brand';
import { PageLoader } from '../../components/page-loader';
import { useAuth } from '../../lib/auth';
import { cn } from '../../lib/utils';
import { useInboxLive } from '../../lib/queries/inbox';
import { MobileNav } from './mobile-nav';
import { NavCountBadge } from './nav-count-badge';
import { isNavItemActive, navItemsFor } from './nav-items';
import { ProfileMenu } from './profile-menu';

/**
 * The inbox count (top bar, drawer, dashboard) and list refresh live in every open tab. A component of
 * its own: the stream's status changes (connecting, open) re-render only this, not the whole shell.
 */
function InboxLiveUpdates({ enabled }: { enabled: boolean }) {
  useInboxLive(enabled);
  return null;
}

/** The signed-in frame: top bar with the main links, profile menu, mobile drawer, and the page. */
export default function AppShell() {
  const { user } = useAuth();
  const items = navItemsFor(user?.user_level);
  const { pathname } = useLocation();

  return (
    <div className="flex min-h-dvh flex-col">
      <InboxLiveUpdates enabled={!!user} />
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[60] focus:rounded-md focus:bg-primary focus:px-3 focus:py-2 focus:text-primary-foreground"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-40 border-b border-border bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/75">
        <div className="mx-auto flex h-16 w-full max-w-screen-2xl items-center gap-2 px-3 sm:px-5">
          <MobileNav items={items} />
          <Link
            to="/app/ceodashboard"
            className="mr-2 shrink-0 rounded-md"
            aria-label="Command Centre dashboard"
          >
            <Brand className="hidden xl:inline-flex" />
            <Brand compact className="xl:hidden" />
          </Link>
          <nav aria-label="Main" className="hidden min-w-0 flex-1 items-center gap-0.5 md:flex">
            {items.map((item) => {
              const active = isNavItemActive(item, pathname);
              return (
                <Link
                  key={item.to}
                  to={item.to}
                  aria-current={active ? 'page' : undefined}
                  className={cn(
                    'flex items-center gap-2 rounded-md px-2 py-2 text-sm font-medium whitespace-nowrap transition-colors lg:px-3',
                    active
                      ? 'bg-muted text-foreground'
                      : 'text-muted-foreground hover:bg-muted/60 hover:text-foreground',
                  )}
                >
                  <item.icon className="hidden size-4 2xl:inline" aria-hidden="true" />
                  {item.label}
                  {item.count ? <NavCountBadge item={item} /> : null}
                </Link>
              );
            })}
          </nav>
          <div className="ml-auto flex shrink-0 items-center">
            <ProfileMenu />
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 sm:px-6 lg:py-8">
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
