import { FILES_PAGE_SIZE, type TFileItem, type TUpdateFileRequest } from '@cc/contract';
import { keepPreviousData, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { saveBlob, transfer } from '../../lib/upload';

export const fileKeys = {
  all: ['files'] as const,
  list: (search: string) => [...fileKeys.all, 'list', search] as const,
};

const filePath = (id: string) => `/api/files/${encodeURIComponent(id)}`;

/** Newest first, 50 a page; "Load more" fetches the next page. */
export const useFiles = (search: string) =>
  useInfiniteQuery({
    queryKey: fileKeys.list(search),
    queryFn: ({ signal, pageParam }) =>
      api<TFileItem[]>('/api/files', {
        signal,
        query: { search: search || undefined, skip: pageParam, limit: FILES_PAGE_SIZE },
      }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) =>
      last.length === FILES_PAGE_SIZE ? pages.reduce((n, p) => n + p.length, 0) : undefined,
    placeholderData: keepPreviousData,
  });

/** One file's record (a citation link opens its preview). */
export const readFile = (id: string) => api<TFileItem>(filePath(id));

/** Uploads files in one request; `onProgress` gets 0..1 for the whole request. */
export function uploadFiles(
  files: readonly File[],
  opts: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<TFileItem[]> {
  const form = new FormData();
  for (const f of files) form.append('files', f, f.name);
  return transfer<TFileItem[]>('/api/files', {
    method: 'POST',
    body: form,
    onUploadProgress: opts.onProgress,
    signal: opts.signal,
  });
}

/** The file's bytes as a Blob: `preview` for display, `download` to save. */
export const fetchFileBlob = (id: string, as: 'preview' | 'download', signal?: AbortSignal) =>
  transfer<Blob>(`${filePath(id)}/${as}`, { responseType: 'blob', signal });

/** Downloads with the token (an <a href> could not send it), then saves under the file's name. */
export async function downloadFile(file: Pick<TFileItem, 'id' | 'name'>): Promise<void> {
  saveBlob(await fetchFileBlob(file.id, 'download'), file.name);
}

function useFileMutation<V>(fn: (vars: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: fileKeys.all }),
  });
}

export const useUpdateFile = () =>
  useFileMutation(({ id, body }: { id: string; body: TUpdateFileRequest }) =>
    api<TFileItem>(filePath(id), { method: 'PATCH', json: body }),
  );

export const useDeleteFile = () =>
  useFileMutation((id: string) => api<void>(filePath(id), { method: 'DELETE' }));

/** After uploads finish, the list shows them. */
export function useRefreshFiles() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: fileKeys.all });
}
