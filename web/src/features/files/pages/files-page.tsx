import { FolderOpen } from 'lucide-react';
import { ComingSoon } from '../../../components/coming-soon';

export default function FilesPage() {
  return (
    <ComingSoon
      icon={FolderOpen}
      title="Files"
      description="Upload, browse and manage the documents your command centre works with."
    />
  );
}
