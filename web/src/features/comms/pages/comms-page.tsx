import { MessagesSquare } from 'lucide-react';
import { ComingSoon } from '../../../components/coming-soon';

export default function CommsPage() {
  return (
    <ComingSoon
      icon={MessagesSquare}
      title="Comms Center"
      description="Conversations with your colleagues in the app, with AI-suggested replies."
    />
  );
}
