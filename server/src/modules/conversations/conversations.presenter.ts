import type { TConversation, TConversationMessage, TMessageSender, TMessageStatus } from '@cc/contract';
import { parseCitations } from '../../ai/citations.ts';
import type { ConversationsTable } from '../../db/types.ts';
import type { MessageRow } from './conversations.repository.ts';

/** The API shape of a conversation. */
export function presentConversation(row: ConversationsTable): TConversation {
  return { id: row.id, name: row.name, created_at: row.created_at, updated_at: row.updated_at };
}

/** The API shape of a message (also the data of the stream's `message` events). */
export function presentMessage(row: MessageRow): TConversationMessage {
  const hasUsage = row.input_tokens != null || row.output_tokens != null;
  return {
    id: row.id,
    conversation_id: row.conversation_id,
    sender: row.sender as TMessageSender,
    text: row.text,
    timestamp: row.created_at,
    crew_run_id: row.crew_run_id,
    flow_run_id: row.flow_run_id,
    status: row.status as TMessageStatus,
    model: row.model,
    usage: hasUsage
      ? {
          input_tokens: row.input_tokens == null ? null : Number(row.input_tokens),
          output_tokens: row.output_tokens == null ? null : Number(row.output_tokens),
        }
      : null,
    position: Number(row.position),
    citations: parseCitations(row.citations),
  };
}
