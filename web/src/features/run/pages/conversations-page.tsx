import { MessageSquareText } from 'lucide-react';
import { ComingSoon } from '../../../components/coming-soon';

export default function ConversationsPage() {
  return (
    <ComingSoon
      icon={MessageSquareText}
      title="Conversations"
      description="Opens your most recent AI conversation, or starts a new one."
    />
  );
}
