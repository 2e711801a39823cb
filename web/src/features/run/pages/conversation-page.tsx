import { MessageSquareText } from 'lucide-react';
import { ComingSoon } from '../../../components/coming-soon';

export default function ConversationPage() {
  return (
    <ComingSoon
      icon={MessageSquareText}
      title="Conversation"
      description="Chat with the assistant, start crews and flows, and answer their questions as they run."
    />
  );
}
