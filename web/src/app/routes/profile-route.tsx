import ProfilePage from '../../features/profile/pages/profile-page';
import { MyUsageCard } from '../../features/usage/components/my-usage-card';

/** /app/profile (features/profile) with the person's own AI usage and remaining budget (features/usage). */
export default function ProfileRoute() {
  return (
    <div className="flex flex-col gap-6">
      <ProfilePage />
      <MyUsageCard />
    </div>
  );
}
