import { TodaysBriefCard } from '../../features/brief/components/todays-brief-card';
import CeoDashboardPage from '../../features/dashboard/pages/ceo-dashboard-page';

/** /app/ceodashboard: the dashboard (features/dashboard) with today's brief (features/brief) composed in. */
export default function CeoDashboardRoute() {
  return <CeoDashboardPage brief={<TodaysBriefCard />} />;
}
