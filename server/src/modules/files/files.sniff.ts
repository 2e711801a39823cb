import type { TFileKind } from '@cc/contract';
import { MAX_FILE_NAME_LENGTH } from '@cc/contract';

/**
 * What a file is served as. The uploader's Content-Type is never trusted: the type comes from the
 * file's first bytes (magic numbers) and, for formats without a signature, the extension, and only
 * from this allow-list. HTML, SVG, XML and scripts are not on it: they are served as
 * application/octet-stream, so a spoofed "image/png" page can never run in the app's origin.
 */
export interface Detected {
  contentType: string;
  kind: TFileKind;
}

export const OCTET_STREAM = 'application/octet-stream';
/** Bytes read from the start of a file to decide its type. */
export const SNIFF_BYTES = 4096;

const startsWith = (head: Buffer, sig: number[], offset = 0) =>
  head.length >= offset + sig.length && sig.every((b, i) => head[offset + i] === b);
const ascii = (head: Buffer, text: string, offset = 0) =>
  head.length >= offset + text.length && head.toString('latin1', offset, offset + text.length) === text;

function sniffBinary(head: Buffer, ext: string): Detected | null {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return image('image/png');
  if (startsWith(head, [0xff, 0xd8, 0xff])) return image('image/jpeg');
  if (ascii(head, 'GIF87a') || ascii(head, 'GIF89a')) return image('image/gif');
  if (ascii(head, 'RIFF') && ascii(head, 'WEBP', 8)) return image('image/webp');
  if (ascii(head, '%PDF-')) return { contentType: 'application/pdf', kind: 'pdf' };
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) {
    // Office documents are zip files: the extension tells which.
    const office: Record<string, string> = {
      docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    };
    return other(office[ext] ?? 'application/zip');
  }
  if (startsWith(head, [0x1f, 0x8b])) return other('application/gzip');
  if (ascii(head, 'ftyp', 4)) return other(ext === 'm4a' ? 'audio/mp4' : 'video/mp4');
  if (ascii(head, 'ID3') || startsWith(head, [0xff, 0xfb])) return other('audio/mpeg');
  return null;
}

const image = (contentType: string): Detected => ({ contentType, kind: 'image' });
const other = (contentType: string): Detected => ({ contentType, kind: 'other' });

/** Text formats previewed as plain text and indexed for search. */
const TEXT_TYPES: Record<string, string> = {
  txt: 'text/plain',
  text: 'text/plain',
  log: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  json: 'application/json',
  yaml: 'text/plain',
  yml: 'text/plain',
};

/** Valid UTF-8 without NUL bytes (a text file's prefix may end inside a multi-byte character). */
function looksLikeText(head: Buffer, complete: boolean): boolean {
  if (head.includes(0)) return false;
  const body = complete ? head : head.subarray(0, trimPartialUtf8(head));
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(body);
    return true;
  } catch {
    return false;
  }
}

/** The length of `buf` without a trailing incomplete UTF-8 sequence. */
function trimPartialUtf8(buf: Buffer): number {
  let i = buf.length - 1;
  let back = 0;
  while (i >= 0 && back < 4 && (buf[i] & 0xc0) === 0x80) {
    i -= 1;
    back += 1;
  }
  if (i < 0) return buf.length;
  const lead = buf[i];
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return need > back + 1 ? i : buf.length;
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/**
 * The served type of a file from its first bytes and its (sanitized) name. `complete` says the head
 * is the whole file.
 */
export function detectType(head: Buffer, name: string, complete: boolean): Detected {
  const ext = extensionOf(name);
  const binary = sniffBinary(head, ext);
  if (binary) return binary;
  const text = TEXT_TYPES[ext];
  if (text && looksLikeText(head, complete)) {
    return { contentType: `${text}; charset=utf-8`, kind: 'text' };
  }
  return other(OCTET_STREAM);
}

/**
 * The display name of an upload: the last path segment of what the client sent (so
 * "../../etc/passwd" becomes "passwd"), without control characters (NUL included), trimmed and cut
 * to the maximum length keeping the extension. Null when nothing usable is left. The name is only
 * ever shown and used in Content-Disposition; the bytes are stored under a generated name.
 */
export function sanitizeUploadName(raw: string | undefined): string | null {
  if (!raw) return null;
  const segment = raw.split(/[/\\]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  let name = segment.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (!name || /^\.+$/.test(name)) return null;
  if (name.length > MAX_FILE_NAME_LENGTH) {
    const ext = extensionOf(name);
    const keep = ext && ext.length < 16 ? `.${ext}` : '';
    name = name.slice(0, MAX_FILE_NAME_LENGTH - keep.length) + keep;
  }
  return name;
}

/** At most this much text is kept per file for the internal search. */
export const MAX_EXTRACTED_TEXT = 200_000;

/** The text kept for search: the decoded file, cut to the maximum (text kinds only). */
export function extractText(bytes: Buffer): string {
  const cut = bytes.subarray(0, MAX_EXTRACTED_TEXT * 4);
  const text = new TextDecoder('utf-8').decode(cut.subarray(0, trimPartialUtf8(cut)));
  return text.slice(0, MAX_EXTRACTED_TEXT);
}

/**
 * `Content-Disposition` with an ASCII fallback and the exact name as RFC 5987 `filename*`, so names
 * with quotes, non-Latin letters or spaces survive and can never break out of the header.
 */
export function contentDisposition(type: 'attachment' | 'inline', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\;%]/g, '_') || 'file';
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
