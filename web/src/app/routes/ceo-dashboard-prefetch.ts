import type { QueryClient } from '@tanstack/react-query';
import { todaysBriefQuery } from '../../features/brief/queries';
import { dashboardGoalsQuery, latestAdviceQuery, urgentTasksQuery } from '../../features/dashboard/queries';

/** The dashboard's code (the module its route loads lazily), so it loads beside the app shell's. */
export const loadCeoDashboardRoute = () => import('./ceo-dashboard-route');

/**
 * The dashboard's reads (the same queries its cards use: goals, urgent tasks, the latest advice and
 * today's brief) and its code, started together when a signed-in user opens it.
 */
export function prefetchCeoDashboard(client: QueryClient): void {
  void loadCeoDashboardRoute();
  void client.prefetchQuery(dashboardGoalsQuery());
  void client.prefetchQuery(urgentTasksQuery());
  void client.prefetchQuery(latestAdviceQuery());
  void client.prefetchQuery(todaysBriefQuery());
}
