import type { TMemory } from '@cc/contract';
import type { MemoryRow } from './memory.repository.ts';

export const presentMemory = (r: MemoryRow): TMemory => ({
  id: r.id,
  content: r.content,
  conversation_id: r.conversation_id,
  created_at: r.created_at,
  // A memory is never edited: its version is its creation.
  updated_at: r.created_at,
});
