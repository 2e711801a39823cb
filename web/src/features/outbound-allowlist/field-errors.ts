import { errorMessageFrom, isApiError } from '../../lib/api';

export interface EntryErrors {
  method?: string;
  destination?: string;
  note?: string;
  /** A message that names no field of the entry being added (shown above the form). */
  general?: string;
}

/**
 * The server's 422 messages for the entry at `index` of the PUT body, by field (`loc` is
 * ["body", "entries", index, field]; the index may arrive as text). Anything else becomes `general`.
 */
export function entryErrorsFrom(err: unknown, index: number): EntryErrors {
  if (!isApiError(err)) return { general: 'The list could not be saved.' };
  const detail = (err.data as { detail?: unknown } | null)?.detail;
  if (!Array.isArray(detail)) return { general: errorMessageFrom(err.data, err.message, err.status) };
  const out: EntryErrors = {};
  const rest: string[] = [];
  for (const d of detail as { loc?: unknown[]; msg?: unknown }[]) {
    const msg = typeof d?.msg === 'string' ? d.msg : 'Invalid value';
    const loc = Array.isArray(d?.loc) ? d.loc : [];
    const field = loc[3];
    const mine = loc[1] === 'entries' && String(loc[2]) === String(index);
    if (mine && (field === 'method' || field === 'destination' || field === 'note')) out[field] ??= msg;
    else rest.push(msg);
  }
  if (rest.length > 0) out.general = rest.join(' ');
  return out;
}
