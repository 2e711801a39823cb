import {
  commsPreview,
  type TCommsMessage,
  type TCommsParticipant,
  type TCommsSuggestion,
  type TCommsThread,
} from '@cc/contract';
import type { CommsSuggestionsTable } from '../../db/types.ts';
import type { MessageRow, ParticipantRow, ThreadRow } from './comms.repository.ts';

export function displayName(u: {
  first_name: string | null;
  last_name: string | null;
  email: string;
}): string {
  const name = [u.first_name, u.last_name].filter(Boolean).join(' ').trim();
  return name || u.email;
}

export function presentParticipant(p: ParticipantRow): TCommsParticipant {
  return { id: p.user_id, name: displayName(p), role: p.role, email: p.email };
}

/** The caller's view: the others' names and roles, the caller's own label, and the preview. */
export function presentThread(
  row: ThreadRow,
  participants: readonly ParticipantRow[],
  callerId: string,
  suggestionId: string | null,
): TCommsThread {
  const others = participants.filter((p) => p.user_id !== callerId).map(presentParticipant);
  const first = others[0] ?? null;
  const defaultName = others.map((o) => o.name).join(', ') || 'Just you';
  // Messages hidden by "Delete Chat" do not leak back through the preview.
  const preview = row.last_seq > row.cleared_seq ? commsPreview(row.last_message_text) : null;
  return {
    id: row.id,
    name: row.name ?? defaultName,
    custom_name: row.name,
    participants: others,
    other_user_id: first?.id ?? null,
    other_user_name: first?.name ?? null,
    other_user_role: first?.role ?? null,
    last_message_preview: preview,
    current_ai_suggestion_id: suggestionId,
    created_at: row.created_at,
    updated_at: row.list_updated_at,
  };
}

export function presentMessage(m: MessageRow): TCommsMessage {
  return {
    id: m.id,
    seq: Number(m.seq),
    thread_id: m.thread_id,
    conversation_id: m.thread_id,
    kind: m.kind === 'system' ? 'system' : 'user',
    sender_id: m.sender_id,
    sender_name: m.sender_name,
    text: m.text,
    timestamp: m.created_at,
    ai_suggested: Boolean(m.ai_suggested),
  };
}

/** `citations`: the suggestion's citations the reader may see (ai/citations.ts visibleCitations). */
export function presentSuggestion(
  s: CommsSuggestionsTable,
  citations: TCommsSuggestion['citations'] = [],
): TCommsSuggestion {
  return {
    id: s.id,
    thread_id: s.thread_id,
    status: s.status === 'pending' ? 'pending' : 'ready',
    text: s.text,
    context: s.context,
    citations,
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}
