import { NotebookPen } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonVariants } from '../../../components/ui/button';
import { useAuth } from '../../../lib/auth';
import { cn } from '../../../lib/utils';
import { AdviceCard } from '../components/advice-card';
import { GoalsCard } from '../components/goals-card';
import { UrgentTasksCard } from '../components/urgent-tasks-card';

/** The greeting: the first name, or the e-mail when there is no first name. */
export function greetingName(user: { first_name: string | null; email: string } | undefined): string {
  return user?.first_name?.trim() || user?.email || '';
}

/** `brief`: the "Today's brief" card, composed in by the route (features never import each other). */
export default function CeoDashboardPage({ brief }: { brief?: ReactNode } = {}) {
  const { user } = useAuth();

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex min-w-0 flex-col gap-1">
          <p className="text-sm font-medium text-muted-foreground">CEO Dashboard</p>
          <h1 className="text-2xl font-semibold tracking-tight break-words sm:text-3xl">
            Welcome back, <span className="text-primary">{greetingName(user)}</span>
          </h1>
        </div>
        <Link to="/app/notes" className={cn(buttonVariants(), 'w-fit')}>
          <NotebookPen aria-hidden="true" />
          Add Notes
        </Link>
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        {brief}
        <GoalsCard />
        <UrgentTasksCard />
        <AdviceCard />
      </div>
    </div>
  );
}
