import { Bot } from 'lucide-react';
import { ComingSoon } from '../../../components/coming-soon';

export default function AiFactoryPage() {
  return (
    <ComingSoon
      icon={Bot}
      title="AI Factory"
      description="Build and run your crews, flows, agents and tools."
    />
  );
}
