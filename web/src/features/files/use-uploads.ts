import { useCallback, useEffect, useRef, useState } from 'react';
import { uploadFiles, useRefreshFiles } from './api';

export type UploadStatus = 'queued' | 'uploading' | 'done' | 'error';

export interface UploadItem {
  key: string;
  name: string;
  size: number;
  /** 0..1 */
  progress: number;
  status: UploadStatus;
  error?: string;
}

/** Files upload one request each (so each has its own progress bar and error), two at a time. */
const CONCURRENCY = 2;
let seq = 0;

export function useUploads() {
  const [items, setItems] = useState<UploadItem[]>([]);
  const queue = useRef<{ key: string; file: File }[]>([]);
  const active = useRef(0);
  const controllers = useRef(new Map<string, AbortController>());
  const refresh = useRefreshFiles();

  const patch = useCallback((key: string, p: Partial<UploadItem>) => {
    setItems((prev) => prev.map((it) => (it.key === key ? { ...it, ...p } : it)));
  }, []);

  const pump = useCallback(() => {
    while (active.current < CONCURRENCY && queue.current.length > 0) {
      const next = queue.current.shift();
      if (!next) break;
      const { key, file } = next;
      const controller = new AbortController();
      controllers.current.set(key, controller);
      active.current += 1;
      patch(key, { status: 'uploading' });
      uploadFiles([file], {
        signal: controller.signal,
        onProgress: (fraction) => patch(key, { progress: fraction }),
      })
        .then(() => {
          patch(key, { status: 'done', progress: 1 });
          void refresh();
        })
        .catch((err: unknown) => {
          const aborted = err instanceof DOMException && err.name === 'AbortError';
          patch(key, { status: 'error', error: aborted ? 'Upload cancelled.' : (err as Error).message });
        })
        .finally(() => {
          controllers.current.delete(key);
          active.current -= 1;
          pump();
        });
    }
  }, [patch, refresh]);

  const add = useCallback(
    (files: readonly File[]) => {
      const added = files.map((file) => ({ key: `u${++seq}`, file }));
      setItems((prev) => [
        ...added.map(({ key, file }) => ({
          key,
          name: file.name,
          size: file.size,
          progress: 0,
          status: 'queued' as const,
        })),
        ...prev,
      ]);
      queue.current.push(...added);
      pump();
    },
    [pump],
  );

  /** Cancels a running or queued upload, or removes a finished one from the list. */
  const dismiss = useCallback((key: string) => {
    queue.current = queue.current.filter((q) => q.key !== key);
    controllers.current.get(key)?.abort();
    setItems((prev) => prev.filter((it) => it.key !== key));
  }, []);

  const clearFinished = useCallback(() => {
    setItems((prev) => prev.filter((it) => it.status === 'uploading' || it.status === 'queued'));
  }, []);

  // Leaving the page cancels what is still running.
  useEffect(() => {
    const running = controllers.current;
    return () => {
      for (const c of running.values()) c.abort();
    };
  }, []);

  return { items, add, dismiss, clearFinished };
}
