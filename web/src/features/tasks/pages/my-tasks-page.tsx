import { ListTodo } from 'lucide-react';
import { ComingSoon } from '../../../components/coming-soon';

export default function MyTasksPage() {
  return (
    <ComingSoon
      icon={ListTodo}
      title="Tasks"
      description="Your tasks with filters, assignment and sharing with organizations, plus AI-suggested tasks to review and approve."
    />
  );
}
