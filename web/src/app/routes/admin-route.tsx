import { useSearchParams } from 'react-router';
import { AdminActivityPanel } from '../../features/activity/components/admin-activity-panel';
import AdminPage from '../../features/admin/pages/admin-page';
import { ModelProvidersCard } from '../../features/models/components/model-providers-card';
import { OutboundAllowlistCard } from '../../features/outbound-allowlist/components/outbound-allowlist-card';
import { ModelPricesCard } from '../../features/usage/components/model-prices-card';
import { UsageSpendPanel } from '../../features/usage/components/usage-spend-panel';
import { Tabs } from './route-tabs';

/**
 * /app/admin: Super Admin (features/admin) with the activity ledger's tab (features/activity), the
 * platform's Usage & spend tab (features/usage) and the Models tab (features/models: the providers,
 * then the offered models and their prices, which stay the spend settings) composed in.
 * `?tab=models` opens the Models tab (the offline-engine banner links there). The Outbound calls tab
 * (features/outbound-allowlist) lists the destinations a model-chosen call may reach without approval.
 */
export default function AdminRoute() {
  const [params] = useSearchParams();
  return (
    <Tabs
      label="Super Admin"
      initial={params.get('tab')}
      tabs={[
        { id: 'users', title: 'Users', panel: () => <AdminPage /> },
        { id: 'activity', title: 'Activity', panel: () => <AdminActivityPanel /> },
        { id: 'usage', title: 'Usage & spend', panel: () => <UsageSpendPanel /> },
        {
          id: 'models',
          title: 'Models',
          panel: () => (
            <div className="flex flex-col gap-6">
              <ModelProvidersCard />
              <ModelPricesCard />
            </div>
          ),
        },
        { id: 'outbound', title: 'Outbound calls', panel: () => <OutboundAllowlistCard /> },
      ]}
    />
  );
}
