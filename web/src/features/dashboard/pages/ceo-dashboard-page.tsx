import { Lightbulb, NotebookPen, Siren, Target } from 'lucide-react';
import { Link } from 'react-router';
import { buttonVariants } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { useAuth } from '../../../lib/auth';
import { cn } from '../../../lib/utils';

const SECTIONS = [
  {
    icon: Target,
    title: 'Strategic Goals',
    text: 'Your goals grouped by organization, each with its average KPI progress.',
  },
  {
    icon: Siren,
    title: 'Urgent Tasks & Communications',
    text: 'The high-priority work that needs you today.',
  },
  {
    icon: Lightbulb,
    title: 'Strategic Advice',
    text: 'The latest analysis of your goals and tasks, with room for your feedback.',
  },
];

/** The greeting: the first name, or the e-mail when there is no first name. */
export function greetingName(user: { first_name: string | null; email: string } | undefined): string {
  return user?.first_name?.trim() || user?.email || '';
}

export default function CeoDashboardPage() {
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
      <div className="grid gap-4 lg:grid-cols-3">
        {SECTIONS.map(({ icon: Icon, title, text }, i) => (
          <Card key={title} className={cn('flex min-h-56 flex-col', i === 2 && 'lg:col-span-3')}>
            <CardHeader>
              <div className="flex items-center gap-2">
                <Icon className="size-5 text-primary" aria-hidden="true" />
                <CardTitle>{title}</CardTitle>
              </div>
              <CardDescription>{text}</CardDescription>
            </CardHeader>
            <CardContent className="flex flex-1 items-center justify-center">
              <p className="rounded-full border border-dashed border-border px-4 py-1.5 text-xs font-semibold tracking-[0.16em] text-muted-foreground uppercase">
                Coming soon
              </p>
            </CardContent>
          </Card>
        ))}
      </div>
    </div>
  );
}
