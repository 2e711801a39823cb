import type { TFileItem } from '@cc/contract';
import {
  Download,
  Eye,
  File as FileIcon,
  FileImage,
  FileText,
  MoreHorizontal,
  Pencil,
  Share2,
  Trash2,
  Users,
} from 'lucide-react';
import { Button } from '../../../components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { Spinner } from '../../../components/ui/spinner';
import { formatDate } from '../../../lib/format';
import { canPreview, fileTypeLabel } from '../file-type';
import { formatBytes } from '../format-bytes';

export interface FileActions {
  onPreview: (f: TFileItem) => void;
  onDownload: (f: TFileItem) => void;
  onRename: (f: TFileItem) => void;
  onShare: (f: TFileItem) => void;
  onDelete: (f: TFileItem) => void;
}

interface FileListProps extends FileActions {
  files: readonly TFileItem[];
  currentUserId: string | undefined;
  downloadingId: string | null;
}

const KIND_ICONS = { image: FileImage, pdf: FileText, text: FileText, other: FileIcon } as const;

/** One row per file: name, type, size and date, with its actions (a column layout on narrow screens). */
export function FileList({ files, currentUserId, downloadingId, ...actions }: FileListProps) {
  return (
    <ul className="flex flex-col divide-y divide-border rounded-xl border border-border bg-card">
      <li
        aria-hidden="true"
        className="hidden grid-cols-[minmax(0,1fr)_9rem_6rem_8rem_7.5rem] gap-3 px-4 py-2 text-xs font-medium tracking-wide text-muted-foreground uppercase md:grid"
      >
        <span>Name</span>
        <span>Type</span>
        <span>Size</span>
        <span>Uploaded</span>
        <span className="text-right">Actions</span>
      </li>
      {files.map((f) => (
        <FileRow
          key={f.id}
          file={f}
          own={f.user_id === currentUserId}
          downloading={downloadingId === f.id}
          {...actions}
        />
      ))}
    </ul>
  );
}

function FileRow({
  file,
  own,
  downloading,
  onPreview,
  onDownload,
  onRename,
  onShare,
  onDelete,
}: FileActions & { file: TFileItem; own: boolean; downloading: boolean }) {
  const Icon = KIND_ICONS[file.kind];
  const type = fileTypeLabel(file);
  const size = formatBytes(file.size);
  const date = formatDate(file.created_at);
  const manage = file.can_edit || file.can_share || file.can_delete;
  return (
    <li
      className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 gap-y-1 px-4 py-3 md:grid-cols-[minmax(0,1fr)_9rem_6rem_8rem_7.5rem]"
      data-testid="file-row"
    >
      <div className="flex min-w-0 items-center gap-3">
        <Icon className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
        <div className="min-w-0">
          <p className="truncate text-sm font-medium" title={file.name}>
            {file.name}
          </p>
          <p className="truncate text-xs text-muted-foreground md:hidden">
            {type} · {size} · {date}
          </p>
          {!own || file.shared_organizations.length > 0 ? (
            <p className="flex items-center gap-1 truncate text-xs text-muted-foreground">
              <Users className="size-3 shrink-0" aria-hidden="true" />
              {own
                ? `Shared with ${file.shared_organizations.map((o) => o.name).join(', ')}`
                : `Shared by ${file.owner?.name ?? 'a colleague'}`}
            </p>
          ) : null}
        </div>
      </div>
      <span className="hidden text-sm text-muted-foreground md:block">{type}</span>
      <span className="hidden text-sm text-muted-foreground md:block">{size}</span>
      <span className="hidden text-sm text-muted-foreground md:block">
        <time dateTime={file.created_at}>{date}</time>
      </span>
      <div className="flex items-center justify-end gap-1">
        {canPreview(file) ? (
          <Button
            variant="ghost"
            size="icon-sm"
            onClick={() => onPreview(file)}
            aria-label={`Preview ${file.name}`}
          >
            <Eye aria-hidden="true" />
          </Button>
        ) : null}
        <Button
          variant="ghost"
          size="icon-sm"
          onClick={() => onDownload(file)}
          disabled={downloading}
          aria-label={`Download ${file.name}`}
        >
          {downloading ? <Spinner /> : <Download aria-hidden="true" />}
        </Button>
        {manage ? (
          <DropdownMenu modal={false}>
            <DropdownMenuTrigger asChild>
              <Button variant="ghost" size="icon-sm" aria-label={`More actions for ${file.name}`}>
                <MoreHorizontal aria-hidden="true" />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              {file.can_edit ? (
                <DropdownMenuItem onSelect={() => onRename(file)}>
                  <Pencil aria-hidden="true" />
                  Rename
                </DropdownMenuItem>
              ) : null}
              {file.can_share ? (
                <DropdownMenuItem onSelect={() => onShare(file)}>
                  <Share2 aria-hidden="true" />
                  Share with organizations
                </DropdownMenuItem>
              ) : null}
              {file.can_delete ? (
                <DropdownMenuItem onSelect={() => onDelete(file)} className="text-danger-text">
                  <Trash2 aria-hidden="true" />
                  Delete
                </DropdownMenuItem>
              ) : null}
            </DropdownMenuContent>
          </DropdownMenu>
        ) : null}
      </div>
    </li>
  );
}
