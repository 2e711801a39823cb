import { NotebookPen } from 'lucide-react';
import { ComingSoon } from '../../../components/coming-soon';

export default function NotesPage() {
  return (
    <ComingSoon
      icon={NotebookPen}
      title="Notes"
      description="Your private journal in markdown, with search, date filters and sorting."
    />
  );
}
