import { useSearchParams } from 'react-router';
import { ConnectionsPanel } from '../../features/connections/components/connections-panel';
import ProfilePage from '../../features/profile/pages/profile-page';
import { MyUsageCard } from '../../features/usage/components/my-usage-card';
import { Tabs } from './route-tabs';

/**
 * /app/profile (features/profile) with the person's own AI usage and remaining budget (features/usage),
 * and the Connections tab (features/connections: their calendars and mailboxes; `?tab=connections`).
 */
export default function ProfileRoute() {
  const [params] = useSearchParams();
  return (
    <Tabs
      label="Profile"
      initial={params.get('tab')}
      tabs={[
        {
          id: 'profile',
          title: 'Profile',
          panel: () => (
            <div className="flex flex-col gap-6">
              <ProfilePage />
              <MyUsageCard />
            </div>
          ),
        },
        { id: 'connections', title: 'Connections', panel: () => <ConnectionsPanel /> },
      ]}
    />
  );
}
