import { CheckCircle2, CircleAlert, UploadCloud, X } from 'lucide-react';
import { type DragEvent, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Progress } from '../../../components/ui/progress';
import { cn } from '../../../lib/utils';
import { formatBytes } from '../format-bytes';
import type { UploadItem } from '../use-uploads';

interface UploadPanelProps {
  items: readonly UploadItem[];
  onFiles: (files: File[]) => void;
  onDismiss: (key: string) => void;
  onClearFinished: () => void;
}

/** Drop files anywhere on the zone, or choose them with the button (keyboard and touch). */
export function UploadPanel({ items, onFiles, onDismiss, onClearFinished }: UploadPanelProps) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const finished = items.some((it) => it.status === 'done' || it.status === 'error');

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const files = Array.from(e.dataTransfer.files ?? []);
    if (files.length) onFiles(files);
  };

  return (
    <section aria-labelledby="upload-heading" className="flex flex-col gap-3">
      <h2 id="upload-heading" className="sr-only">
        Upload files
      </h2>
      <section
        data-testid="file-drop-zone"
        aria-label="Drop files here to upload them"
        onDragEnter={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragOver={(e) => {
          e.preventDefault();
          e.dataTransfer.dropEffect = 'copy';
        }}
        onDragLeave={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOver(false);
        }}
        onDrop={onDrop}
        className={cn(
          'flex flex-col items-center justify-center gap-3 rounded-xl border-2 border-dashed border-border bg-card/40 px-4 py-8 text-center transition-colors',
          over && 'border-primary bg-primary/10',
        )}
      >
        <UploadCloud className="size-8 text-muted-foreground" aria-hidden="true" />
        <p className="text-sm text-muted-foreground">Drag and drop files here, or</p>
        <Button onClick={() => input.current?.click()}>Choose files</Button>
        <input
          ref={input}
          type="file"
          multiple
          className="sr-only"
          tabIndex={-1}
          aria-label="Files to upload"
          onChange={(e) => {
            const files = Array.from(e.target.files ?? []);
            e.target.value = '';
            if (files.length) onFiles(files);
          }}
        />
      </section>

      {items.length > 0 ? (
        <div className="flex flex-col gap-2">
          <div className="flex items-center justify-between gap-2">
            <h3 className="text-sm font-medium">Uploads</h3>
            {finished ? (
              <Button variant="ghost" size="sm" onClick={onClearFinished}>
                Clear finished
              </Button>
            ) : null}
          </div>
          <ul className="flex flex-col gap-2" aria-live="polite">
            {items.map((it) => (
              <UploadRow key={it.key} item={it} onDismiss={onDismiss} />
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

function UploadRow({ item, onDismiss }: { item: UploadItem; onDismiss: (key: string) => void }) {
  const pct = Math.round(item.progress * 100);
  const running = item.status === 'uploading' || item.status === 'queued';
  return (
    <li className="flex flex-col gap-1.5 rounded-lg border border-border bg-card px-3 py-2.5">
      <div className="flex items-center gap-2 text-sm">
        {item.status === 'done' ? (
          <CheckCircle2 className="size-4 shrink-0 text-emerald-400" aria-hidden="true" />
        ) : item.status === 'error' ? (
          <CircleAlert className="size-4 shrink-0 text-danger-text" aria-hidden="true" />
        ) : null}
        <span className="min-w-0 flex-1 truncate" title={item.name}>
          {item.name}
        </span>
        <span className="shrink-0 text-xs text-muted-foreground">
          {item.status === 'done'
            ? 'Uploaded'
            : item.status === 'error'
              ? 'Failed'
              : item.status === 'queued'
                ? 'Waiting…'
                : `${pct}%`}{' '}
          · {formatBytes(item.size)}
        </span>
        <Button
          variant="ghost"
          size="icon-sm"
          onClick={() => onDismiss(item.key)}
          aria-label={running ? `Cancel upload of ${item.name}` : `Dismiss ${item.name}`}
        >
          <X aria-hidden="true" />
        </Button>
      </div>
      {item.status !== 'error' ? (
        <Progress
          value={item.status === 'done' ? 100 : pct}
          label={`Upload progress of ${item.name}`}
          indicatorClassName={item.status === 'done' ? 'bg-emerald-500' : undefined}
        />
      ) : (
        <p className="text-xs text-danger-text" role="alert">
          {item.error}
        </p>
      )}
    </li>
  );
}
