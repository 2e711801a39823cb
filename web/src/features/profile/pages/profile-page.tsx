import { PageHeader } from '../../../components/page-header';
import { VerifyEmailNotice } from '../../../components/verify-email-notice';
import { ADMIN_LEVELS, hasLevel } from '../../../lib/access';
import { useAuth } from '../../../lib/auth';
import { ApiKeysCard } from '../components/api-keys-card';
import { BriefScheduleForm } from '../components/brief-schedule-form';
import { PasswordForm } from '../components/password-form';
import { ProfileForm } from '../components/profile-form';
import { SignOutEverywhereCard } from '../components/sign-out-everywhere-card';

export default function ProfilePage() {
  const { user } = useAuth();
  if (!user) return null;
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Profile" description="Your details, objectives and working notes." />
      {user.email_verified === false ? <VerifyEmailNotice email={user.email} /> : null}
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1.6fr)_minmax(0,1fr)]">
        <ProfileForm key={user.id} user={user} isAdmin={hasLevel(user.user_level, ADMIN_LEVELS)} />
        <div className="flex flex-col gap-6">
          <PasswordForm />
          <BriefScheduleForm key={`brief-${user.id}`} user={user} />
          <SignOutEverywhereCard />
        </div>
      </div>
      <ApiKeysCard />
    </div>
  );
}
