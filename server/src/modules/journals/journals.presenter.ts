import type { TJournal } from '@cc/contract';
import type { JournalsTable } from '../../db/types.ts';

/** The API shape of a note entry. */
export function presentJournal(row: JournalsTable): TJournal {
  return {
    id: row.id,
    user_id: row.user_id,
    content: row.content,
    entry_date: row.entry_date,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
