import { FlaskConical } from 'lucide-react';
import { ComingSoon } from '../../../components/coming-soon';

export default function TestRunPage() {
  return (
    <ComingSoon
      icon={FlaskConical}
      title="Test Run"
      description="Pick a conversation and a crew, fill in the crew's inputs, and start a run."
    />
  );
}
