import { TaskSuggestions } from '../../features/task-suggestions/components/task-suggestions';
import MyTasksPage from '../../features/tasks/pages/my-tasks-page';

/** /app/my-tasks: the task list (features/tasks) with the ceo's AI task suggestions composed in. */
export default function MyTasksRoute() {
  return <MyTasksPage suggestions={<TaskSuggestions />} />;
}
