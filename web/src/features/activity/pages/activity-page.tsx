import { PageHeader } from '../../../components/page-header';
import { Card } from '../../../components/ui/card';
import { ActivityFeed } from '../components/activity-feed';

/** /app/activity: the signed-in person's own trail and what the AI did for them, with Undo. */
export default function ActivityPage() {
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Activity"
        description="Your sign-ins and security events, and every change the AI made for you. Undo takes back an AI change nobody has edited since."
      />
      <Card className="p-4 sm:p-5">
        <ActivityFeed scope="mine" />
      </Card>
    </div>
  );
}
