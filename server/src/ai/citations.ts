import { citationUrl, type TRecordCitation } from '@cc/contract';
import type { Source } from './tools/types.ts';

/** At most this many records are cited under one answer (the offline engine names as many). */
export const MAX_CITATIONS = 12;

/**
 * The citations of an AI output from the records its tools returned (issue 20 §3). The tools run with
 * the caller's rights (internal search and the workspace snapshot apply the domain policies), so every
 * record here is one the caller may see; nothing else is ever cited.
 */
export function citationsOf(sources: readonly Source[]): TRecordCitation[] {
  return sources.slice(0, MAX_CITATIONS).map((s) => ({
    type: s.type,
    id: s.id,
    title: s.title,
    url: citationUrl(s.type, s.id),
  }));
}

/** The stored JSON of a list of citations, read back; anything malformed reads as none. */
export function parseCitations(json: string | null | undefined): TRecordCitation[] {
  if (!json) return [];
  try {
    const v = JSON.parse(json);
    return Array.isArray(v) ? (v as TRecordCitation[]) : [];
  } catch {
    return [];
  }
}
