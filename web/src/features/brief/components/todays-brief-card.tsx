import { FileText } from 'lucide-react';
import { Link } from 'react-router';
import { buttonVariants } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { useQuery } from '@tanstack/react-query';
import { todaysBriefQuery } from '../queries';
import { DeliveryNote } from './brief-view';

export const TODAYS_BRIEF_TITLE = "Today's brief";
export const NO_BRIEF_TODAY_TEXT = 'No brief today yet.';

const isToday = (iso: string) => new Date(iso).toDateString() === new Date().toDateString();

/** The CEO dashboard's card: today's brief (summary and top actions), or a way to make one. */
export function TodaysBriefCard() {
  const briefs = useQuery(todaysBriefQuery());
  const latest = briefs.data?.[0];
  const today = latest && isToday(latest.created_at) ? latest : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <FileText className="size-5" aria-hidden="true" />
          {TODAYS_BRIEF_TITLE}
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {briefs.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : today ? (
          <>
            <p className="line-clamp-4 whitespace-pre-line">{today.summary}</p>
            <ol className="flex list-decimal flex-col gap-1 pl-5">
              {today.actions.map((a) => (
                <li key={a.text}>
                  {a.citations[0] ? (
                    <Link to={a.citations[0].url} className="hover:underline">
                      {a.text}
                    </Link>
                  ) : (
                    a.text
                  )}
                </li>
              ))}
            </ol>
            <DeliveryNote brief={today} />
          </>
        ) : (
          <p className="text-muted-foreground">{NO_BRIEF_TODAY_TEXT}</p>
        )}
        <Link
          to={today ? `/app/brief?id=${encodeURIComponent(today.id)}` : '/app/brief'}
          className={buttonVariants({ variant: 'outline', className: 'w-fit' })}
        >
          Open brief
        </Link>
      </CardContent>
    </Card>
  );
}
