import { AlertTriangle } from 'lucide-react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { Brand } from '../components/brand';
import { Button } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { Skeleton } from '../components/ui/skeleton';
import { useAuth } from '../lib/auth';
import { loginPathFor } from '../lib/redirect';
import { usePrefetchMatchedRoutes } from './route-prefetch';

/**
 * The signed-in area: anonymous visitors go to /login?redirect=<where they were going>, waitlisted
 * users to /waitlist; everyone else gets the app once their profile has loaded.
 */
export function RequireAuth() {
  const { token, user, userStatus, refetchUser, signOut } = useAuth();
  const location = useLocation();
  usePrefetchMatchedRoutes(Boolean(token && user && user.user_level !== 'waitlisted'));

  if (!token) return <Navigate to={loginPathFor(location.pathname + location.search)} replace />;
  if (!user) {
    if (userStatus === 'error') {
      return (
        <div className="flex min-h-dvh items-center justify-center p-4">
          <Card className="flex w-full max-w-md flex-col items-center gap-4 p-8 text-center">
            <AlertTriangle className="size-8 text-primary" aria-hidden="true" />
            <h1 className="text-xl font-semibold">Profile Error</h1>
            <p className="text-sm text-muted-foreground">
              Could not load your profile. Please try again later.
            </p>
            <div className="flex gap-2">
              <Button onClick={refetchUser}>Try again</Button>
              <Button variant="outline" onClick={signOut}>
                Logout
              </Button>
            </div>
          </Card>
        </div>
      );
    }
    return <ShellSkeleton />;
  }
  if (user.user_level === 'waitlisted') return <Navigate to="/waitlist" replace />;
  return <Outlet />;
}

/** A part of the app only some user levels may open; everyone else is sent to /app. */
export function RequireLevel({ levels }: { levels: readonly string[] }) {
  const { user } = useAuth();
  if (!user || !levels.includes(user.user_level)) return <Navigate to="/app" replace />;
  return <Outlet />;
}

function ShellSkeleton() {
  return (
    <div className="min-h-dvh" role="status" aria-live="polite">
      <span className="sr-only">Loading your workspace…</span>
      <div className="flex h-16 items-center gap-4 border-b border-border px-4 sm:px-6">
        <Brand />
        <Skeleton className="ml-auto h-8 w-8 rounded-full" />
      </div>
      <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-8 sm:px-6">
        <Skeleton className="h-9 w-72 max-w-full" />
        <div className="grid gap-4 md:grid-cols-2">
          <Skeleton className="h-48" />
          <Skeleton className="h-48" />
        </div>
      </div>
    </div>
  );
}
