import type { TFileItem } from '@cc/contract';
import { FolderOpen, Search } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Skeleton } from '../../../components/ui/skeleton';
import { Spinner } from '../../../components/ui/spinner';
import { serverDetail } from '../../../lib/api';
import { useAuth } from '../../../lib/auth';
import { notify } from '../../../lib/toast';
import { useDebounced } from '../../../lib/use-debounced';
import { useLinkedRecord } from '../../../lib/use-linked-record';
import { useOrganizations } from '../../../lib/queries/organizations';
import { downloadFile, readFile, useDeleteFile, useFiles, useUpdateFile } from '../api';
import { RenameDialog, ShareFileDialog } from '../components/file-dialogs';
import { FileList } from '../components/file-list';
import { PreviewDialog } from '../components/preview-dialog';
import { UploadPanel } from '../components/upload-panel';
import { useUploads } from '../use-uploads';

export default function FilesPage() {
  const { user } = useAuth();
  const [search, setSearch] = useState('');
  const term = useDebounced(search.trim());
  const files = useFiles(term);
  const uploads = useUploads();
  const orgs = useOrganizations();
  const update = useUpdateFile();
  const remove = useDeleteFile();

  const [previewing, setPreviewing] = useState<TFileItem | null>(null);
  const [renaming, setRenaming] = useState<TFileItem | null>(null);
  const [sharing, setSharing] = useState<TFileItem | null>(null);
  const [deleting, setDeleting] = useState<TFileItem | null>(null);
  const [downloadingId, setDownloadingId] = useState<string | null>(null);
  // A citation link (?file=<id>) opens the file's preview.
  useLinkedRecord('file', 'file', readFile, setPreviewing);

  const list = files.data?.pages.flat() ?? [];

  const onDownload = async (f: TFileItem) => {
    setDownloadingId(f.id);
    try {
      await downloadFile(f);
    } catch (err) {
      notify.error('Download failed', serverDetail(err) ?? 'Please try again.');
    } finally {
      setDownloadingId(null);
    }
  };
  const onRename = (f: TFileItem, name: string) =>
    update.mutate(
      { id: f.id, body: { name } },
      {
        onSuccess: () => {
          setRenaming(null);
          notify.success('File renamed');
        },
      },
    );
  const onShare = (f: TFileItem, ids: string[]) =>
    update.mutate(
      { id: f.id, body: { shared_org_ids: ids } },
      {
        onSuccess: () => {
          setSharing(null);
          notify.success('Sharing updated');
        },
        onError: (err) => notify.error('Could not update sharing', serverDetail(err) ?? 'Please try again.'),
      },
    );
  const onDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => notify.success('File deleted'),
      onError: (err) => notify.error('Could not delete the file', serverDetail(err) ?? 'Please try again.'),
      onSettled: () => setDeleting(null),
    });
  };

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Files"
        description="Upload, preview and share the documents your command centre works with."
      />
      <Card className="p-4 sm:p-5">
        <UploadPanel
          items={uploads.items}
          onFiles={uploads.add}
          onDismiss={uploads.dismiss}
          onClearFinished={uploads.clearFinished}
        />
      </Card>

      <section aria-labelledby="files-heading" className="flex flex-col gap-3">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <h2 id="files-heading" className="text-lg font-semibold">
            Your files
          </h2>
          <div className="relative sm:w-72">
            <Search
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
              aria-hidden="true"
            />
            <Input
              type="search"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              placeholder="Search files by name"
              aria-label="Search files"
              className="pl-9"
            />
          </div>
        </div>

        {files.isPending ? (
          <div className="flex flex-col gap-2" role="status">
            <span className="sr-only">Loading files…</span>
            <Skeleton className="h-14" />
            <Skeleton className="h-14" />
            <Skeleton className="h-14" />
          </div>
        ) : files.isError ? (
          <Alert>Failed to load files: {files.error.message}</Alert>
        ) : list.length === 0 ? (
          <Card className="flex flex-col items-center gap-3 px-6 py-12 text-center">
            <FolderOpen className="size-8 text-muted-foreground" aria-hidden="true" />
            <p className="text-sm text-muted-foreground">
              {term ? 'No files match your search.' : 'No files yet. Upload your first file above.'}
            </p>
          </Card>
        ) : (
          <div className="flex flex-col gap-3" aria-busy={files.isFetching}>
            <FileList
              files={list}
              currentUserId={user?.id}
              downloadingId={downloadingId}
              onPreview={setPreviewing}
              onDownload={onDownload}
              onRename={(f) => {
                update.reset();
                setRenaming(f);
              }}
              onShare={setSharing}
              onDelete={setDeleting}
            />
            {files.hasNextPage ? (
              <Button
                variant="outline"
                className="self-center"
                onClick={() => files.fetchNextPage()}
                disabled={files.isFetchingNextPage}
              >
                {files.isFetchingNextPage ? <Spinner /> : null}
                Load more
              </Button>
            ) : null}
          </div>
        )}
      </section>

      <PreviewDialog file={previewing} onClose={() => setPreviewing(null)} onDownload={onDownload} />
      <RenameDialog
        file={renaming}
        pending={update.isPending}
        error={update.isError && renaming ? update.error.message : undefined}
        onClose={() => setRenaming(null)}
        onRename={onRename}
      />
      <ShareFileDialog
        file={sharing}
        organizations={orgs.data ?? []}
        loading={orgs.isPending}
        pending={update.isPending}
        onClose={() => setSharing(null)}
        onShare={onShare}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete file?"
        description={
          <>
            <span className="break-all font-medium text-foreground">{deleting?.name}</span> will be deleted
            for you and everyone it is shared with. This cannot be undone.
          </>
        }
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={onDelete}
      />
    </div>
  );
}
