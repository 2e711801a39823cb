import type { TFileItem } from '@cc/contract';

const LABELS: Record<string, string> = {
  'image/png': 'PNG image',
  'image/jpeg': 'JPEG image',
  'image/gif': 'GIF image',
  'image/webp': 'WebP image',
  'application/pdf': 'PDF',
  'text/plain': 'Text',
  'text/markdown': 'Markdown',
  'text/csv': 'CSV',
  'text/tab-separated-values': 'TSV',
  'application/json': 'JSON',
  'application/zip': 'ZIP archive',
  'application/gzip': 'GZIP archive',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel workbook',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'PowerPoint deck',
  'audio/mpeg': 'Audio',
  'audio/mp4': 'Audio',
  'video/mp4': 'Video',
};

/** A short type for the list: from the served content type, else the extension ("HTML file"). */
export function fileTypeLabel(file: Pick<TFileItem, 'content_type' | 'name'>): string {
  const base = file.content_type.split(';')[0].trim().toLowerCase();
  if (LABELS[base]) return LABELS[base];
  const dot = file.name.lastIndexOf('.');
  const ext = dot > 0 ? file.name.slice(dot + 1) : '';
  return ext && ext.length <= 8 ? `${ext.toUpperCase()} file` : 'File';
}

/** Images, PDFs and text can be previewed. */
export const canPreview = (file: Pick<TFileItem, 'kind'>) => file.kind !== 'other';
