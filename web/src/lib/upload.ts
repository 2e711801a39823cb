import { ApiError, errorMessageFrom, getToken, onSessionInvalid, parseBody } from './api';

/**
 * File transfers need what `fetch` cannot give (upload progress) or what `api()` does not return (a
 * Blob), so they go through XMLHttpRequest here, with the same token, error shape and 401/403 session
 * rule as `lib/api.ts` (whose helpers it uses).
 */

export interface TransferOptions {
  method?: 'GET' | 'POST';
  body?: FormData;
  responseType?: 'json' | 'blob';
  /** Called with 0..1 while the body is sent. */
  onUploadProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

async function errorData(xhr: XMLHttpRequest): Promise<unknown> {
  const raw: unknown = xhr.response;
  const text = raw instanceof Blob ? await raw.text() : typeof raw === 'string' ? raw : xhr.responseText;
  return parseBody(text);
}

export function transfer<T>(url: string, opts: TransferOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const token = getToken();
    xhr.open(opts.method ?? (opts.body ? 'POST' : 'GET'), url);
    xhr.responseType = opts.responseType === 'blob' ? 'blob' : 'text';
    xhr.setRequestHeader('Accept', opts.responseType === 'blob' ? '*/*' : 'application/json');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    if (opts.onUploadProgress) {
      const report = opts.onUploadProgress;
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable && e.total > 0) report(e.loaded / e.total);
      };
    }
    const onAbort = () => xhr.abort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => opts.signal?.removeEventListener('abort', onAbort);

    xhr.onload = async () => {
      done();
      if (xhr.status >= 200 && xhr.status < 300) {
        if (opts.responseType === 'blob') return resolve(xhr.response as T);
        const text = xhr.responseText;
        try {
          return resolve((text ? JSON.parse(text) : undefined) as T);
        } catch {
          return resolve(text as T);
        }
      }
      const data = await errorData(xhr);
      if ((xhr.status === 401 || xhr.status === 403) && token && getToken() === token) onSessionInvalid();
      reject(new ApiError(errorMessageFrom(data, xhr.statusText, xhr.status), xhr.status, data));
    };
    xhr.onerror = () => {
      done();
      reject(new ApiError('Network error. Please check your connection and try again.', 0, undefined));
    };
    xhr.onabort = () => {
      done();
      reject(new DOMException('The transfer was cancelled.', 'AbortError'));
    };
    xhr.send(opts.body ?? null);
  });
}

/** Saves a Blob under a file name through a temporary object URL. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // The browser has taken the download over by the next task; keep the URL a little longer anyway.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
