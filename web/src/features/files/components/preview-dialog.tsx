import type { TFileItem } from '@cc/contract';
import { Download } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Skeleton } from '../../../components/ui/skeleton';
import { fetchFileBlob } from '../api';
import { fileTypeLabel } from '../file-type';
import { formatBytes } from '../format-bytes';
import { cn } from '../../../lib/utils';

/** Text previews stop here; the download has the rest. */
const MAX_TEXT_PREVIEW = 200_000;

type Loaded = { url: string; text?: undefined } | { text: string; truncated: boolean; url?: undefined };

interface PreviewDialogProps {
  file: TFileItem | null;
  onClose: () => void;
  onDownload: (file: TFileItem) => void;
}

/**
 * Images and PDFs are shown from an object URL of the authenticated response (so the token never
 * sits in a URL), text as plain text: nothing the file contains is ever interpreted as HTML.
 */
export function PreviewDialog({ file, onClose, onDownload }: PreviewDialogProps) {
  const [state, setState] = useState<{ loaded?: Loaded; error?: string }>({});

  useEffect(() => {
    if (!file) return;
    const controller = new AbortController();
    let url: string | null = null;
    setState({});
    fetchFileBlob(file.id, 'preview', controller.signal)
      .then(async (blob) => {
        if (file.kind === 'text') {
          const text = await blob.text();
          setState({
            loaded: { text: text.slice(0, MAX_TEXT_PREVIEW), truncated: text.length > MAX_TEXT_PREVIEW },
          });
        } else {
          url = URL.createObjectURL(blob);
          setState({ loaded: { url } });
        }
      })
      .catch((err: unknown) => {
        if (!controller.signal.aborted)
          setState({ error: (err as Error).message || 'Could not load the preview.' });
      });
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [file]);

  const { loaded, error } = state;
  return (
    <Dialog open={file !== null} onOpenChange={(open) => !open && onClose()}>
      {/* Text and images size the dialog to themselves (up to 4xl); a PDF's frame needs the full width. */}
      <DialogContent
        className={cn(
          'max-w-4xl',
          loaded && file && (loaded.text !== undefined || file.kind === 'image') && 'sm:w-fit sm:min-w-md',
        )}
      >
        <DialogHeader>
          <DialogTitle className="break-all">{file?.name}</DialogTitle>
          <DialogDescription>
            {file ? `${fileTypeLabel(file)} · ${formatBytes(file.size)}` : null}
          </DialogDescription>
        </DialogHeader>
        <div className="min-h-40">
          {error ? (
            <Alert>Could not load the preview: {error}</Alert>
          ) : !loaded || !file ? (
            <div role="status">
              <span className="sr-only">Loading preview…</span>
              <Skeleton className="h-64 w-full" />
            </div>
          ) : loaded.text !== undefined ? (
            <>
              <section
                aria-label={`Content of ${file.name}`}
                // A scrollable region must be reachable by keyboard.
                // biome-ignore lint/a11y/noNoninteractiveTabindex: scrollable content
                tabIndex={0}
                className="max-h-[60dvh] overflow-auto rounded-lg border border-border bg-background p-3"
              >
                <pre className="text-xs leading-relaxed whitespace-pre-wrap break-words">{loaded.text}</pre>
              </section>
              {loaded.truncated ? (
                <p className="mt-2 text-xs text-muted-foreground">
                  Preview cut short; download the file for all of it.
                </p>
              ) : null}
            </>
          ) : file.kind === 'image' ? (
            <img
              src={loaded.url}
              alt={`Preview of ${file.name}`}
              className="mx-auto max-h-[60dvh] max-w-full rounded-lg object-contain"
            />
          ) : (
            <iframe
              src={loaded.url}
              title={`Preview of ${file.name}`}
              className="h-[60dvh] w-full rounded-lg border border-border bg-white"
            />
          )}
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
          {file ? (
            <Button onClick={() => onDownload(file)}>
              <Download aria-hidden="true" />
              Download
            </Button>
          ) : null}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
