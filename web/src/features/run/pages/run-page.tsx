import { Play } from 'lucide-react';
import { ComingSoon } from '../../../components/coming-soon';

export default function RunPage() {
  return (
    <ComingSoon
      icon={Play}
      title="Run"
      description="Your AI interactions: start a new conversation, run crews and flows, and follow their progress live."
    />
  );
}
