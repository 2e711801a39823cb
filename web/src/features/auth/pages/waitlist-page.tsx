import { Clock, LogOut } from 'lucide-react';
import { Navigate, useNavigate } from 'react-router';
import { PublicLayout } from '../../../components/public-layout';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { useAuth } from '../../../lib/auth';
import { DEFAULT_APP_PATH } from '../../../lib/redirect';
import { VerifyEmailNotice } from '../../../components/verify-email-notice';

export default function WaitlistPage() {
  const { token, user, userStatus, refetchUser, signOut } = useAuth();
  const navigate = useNavigate();

  if (!token) return <Navigate to="/login" replace />;
  if (user && user.user_level !== 'waitlisted') return <Navigate to={DEFAULT_APP_PATH} replace />;

  const logout = () => {
    signOut();
    navigate('/login', { replace: true });
  };

  return (
    <PublicLayout nav="none">
      <div className="flex flex-1 items-center justify-center px-4 py-12">
        <Card className="w-full max-w-lg p-8 text-center sm:p-10">
          <span className="mx-auto mb-5 grid size-14 place-items-center rounded-full border border-border bg-muted">
            <Clock className="size-6 text-primary" aria-hidden="true" />
          </span>
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">You're on the Waitlist!</h1>
          {user ? (
            <div className="mt-4 flex flex-col gap-3 text-muted-foreground">
              <p>
                Thank you for signing up,{' '}
                <span className="font-medium text-foreground">{user.first_name || user.email}</span>. Our
                private beta admits one new company every two weeks.
              </p>
              <p>
                We'll notify you at <span className="font-medium text-foreground">{user.email}</span> as soon
                as your access is approved.
              </p>
              {user.email_verified === false ? <VerifyEmailNotice email={user.email} /> : null}
            </div>
          ) : userStatus === 'error' ? (
            <div className="mt-4 flex flex-col items-center gap-3 text-muted-foreground">
              <p>Could not load your profile. Please try again later.</p>
              <Button variant="outline" size="sm" onClick={refetchUser}>
                Try again
              </Button>
            </div>
          ) : (
            <div className="mt-5 flex flex-col items-center gap-2" role="status">
              <span className="sr-only">Loading…</span>
              <Skeleton className="h-4 w-64 max-w-full" />
              <Skeleton className="h-4 w-52 max-w-full" />
            </div>
          )}
          <Button variant="outline" className="mt-8" onClick={logout}>
            <LogOut aria-hidden="true" />
            Logout
          </Button>
        </Card>
      </div>
    </PublicLayout>
  );
}
