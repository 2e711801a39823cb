import AdminPage from '../../features/admin/pages/admin-page';
import { UsageSpendPanel } from '../../features/usage/components/usage-spend-panel';
import { Tabs } from './route-tabs';

/** /app/admin: Super Admin (features/admin) with the platform's Usage & spend tab (features/usage). */
export default function AdminRoute() {
  return (
    <Tabs
      label="Super Admin"
      tabs={[
        { id: 'users', title: 'Users', panel: () => <AdminPage /> },
        { id: 'usage', title: 'Usage & spend', panel: () => <UsageSpendPanel /> },
      ]}
    />
  );
}
