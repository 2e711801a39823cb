import { Target } from 'lucide-react';
import { ComingSoon } from '../../../components/coming-soon';

export default function StrategyPage() {
  return (
    <ComingSoon
      icon={Target}
      title="Strategy Center"
      description="Strategic goals with KPIs and progress, filters by status and organization, and strategic advice you can generate, edit and rate."
    />
  );
}
