import { useState } from 'react';
import { PageHeader } from '../../../components/page-header';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ActivityFeed } from '../components/activity-feed';

const VIEWS = [
  { key: 'all', label: 'All activity' },
  { key: 'ai', label: 'AI changes' },
] as const;

/** /app/activity: the signed-in person's own trail and what the AI did for them, with Undo. */
export default function ActivityPage() {
  const [view, setView] = useState<(typeof VIEWS)[number]['key']>('all');
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Activity"
        description="Your sign-ins and security events, and every change the AI made for you. Undo takes back an AI change nobody has edited since."
      />
      <Card className="flex flex-col gap-4 p-4 sm:p-5">
        <fieldset className="flex flex-wrap gap-2">
          <legend className="sr-only">Show</legend>
          {VIEWS.map((v) => (
            <Button
              key={v.key}
              size="sm"
              variant={view === v.key ? 'default' : 'outline'}
              aria-pressed={view === v.key}
              onClick={() => setView(v.key)}
            >
              {v.label}
            </Button>
          ))}
        </fieldset>
        <ActivityFeed scope="mine" filters={view === 'ai' ? { source: 'ai' } : {}} />
      </Card>
    </div>
  );
}
