import { AdminActivityPanel } from '../../features/activity/components/admin-activity-panel';
import AdminPage from '../../features/admin/pages/admin-page';

/** /app/admin: Super Admin (features/admin) with the activity ledger's tab (features/activity) composed in. */
export default function AdminRoute() {
  return <AdminPage activity={<AdminActivityPanel />} />;
}
