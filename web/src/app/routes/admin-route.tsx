import { AdminActivityPanel } from '../../features/activity/components/admin-activity-panel';
import AdminPage from '../../features/admin/pages/admin-page';
import { ModelPricesCard } from '../../features/usage/components/model-prices-card';
import { UsageSpendPanel } from '../../features/usage/components/usage-spend-panel';
import { Tabs } from './route-tabs';

/**
 * /app/admin: Super Admin (features/admin) with the activity ledger's tab (features/activity) and the
 * platform's Usage & spend tab (features/usage) composed in.
 */
export default function AdminRoute() {
  return (
    <Tabs
      label="Super Admin"
      tabs={[
        { id: 'users', title: 'Users', panel: () => <AdminPage /> },
        { id: 'activity', title: 'Activity', panel: () => <AdminActivityPanel /> },
        {
          id: 'usage',
          title: 'Usage & spend',
          panel: () => (
            <div className="flex flex-col gap-6">
              <UsageSpendPanel />
              <ModelPricesCard />
            </div>
          ),
        },
      ]}
    />
  );
}
