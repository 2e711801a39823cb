import { generateText } from 'ai';
import type { AppContext } from '../../platform/context.ts';
import { resolveModel } from '../models.ts';
import { extractFacts } from '../offline/handlers/memory-extraction.ts';

const MAX_FACTS = 10;
const MAX_FACT_CHARS = 300;

const SYSTEM = [
  'You extract durable facts about the user from what they wrote: who they are, their role, company,',
  'preferences, habits, goals and constraints that will still be true in later conversations.',
  'Ignore questions, one-off requests and anything about other people only.',
  'When the text is an exchange ("User: ..." then "Assistant: ..."), take facts only from what the user',
  "wrote; the assistant's reply is context, never a source of facts.",
  'Answer with JSON only, exactly: {"facts": ["...", "..."]} — short sentences, at most 10; {"facts": []} when none.',
].join(' ');

/** Reads `{"facts": [...]}` from model text (code fences tolerated); null when it is not that. */
export function parseFacts(text: string): string[] | null {
  const m = text.match(/\{[\s\S]*\}/);
  if (!m) return null;
  try {
    const v = JSON.parse(m[0]) as { facts?: unknown };
    if (!Array.isArray(v.facts)) return null;
    return v.facts
      .filter((f): f is string => typeof f === 'string')
      .map((f) => f.replace(/\s+/g, ' ').trim().slice(0, MAX_FACT_CHARS))
      .filter(Boolean)
      .slice(0, MAX_FACTS);
  } catch {
    return null;
  }
}

const EXCHANGE = /^User:\s*([\s\S]*?)\n\s*\nAssistant:\s*[\s\S]*$/;

/**
 * What the user wrote in `content`: the "User:" part of an exchange (the web mines each exchange once
 * it is answered), else all of it. The heuristic reads only this, so a reply's "I am ..." is no fact.
 */
export function userPart(content: string): string {
  const m = content.match(EXCHANGE);
  return m ? m[1].trim() : content;
}

/**
 * Durable facts about the user in `content`, by the configured model (the offline engine's
 * 'memory-extraction' handler when no provider is configured). When a provider fails or answers
 * something unreadable, the same heuristic the offline engine uses answers instead: mining is best effort.
 */
export async function extractMemories(
  ctx: AppContext,
  /** Whose request this is: the call is metered to them and their organization. */
  requester: { id: string; organization_id: string | null },
  content: string,
  abortSignal?: AbortSignal,
): Promise<string[]> {
  if (!content.trim()) return [];
  const { model } = resolveModel(ctx, null, {
    userId: requester.id,
    organizationId: requester.organization_id,
    feature: 'memory',
  });
  try {
    const { text } = await generateText({
      model,
      system: SYSTEM,
      prompt: content,
      maxRetries: ctx.config.ai.maxRetries,
      abortSignal,
      providerOptions: { offline: { task: 'memory-extraction', data: { content: userPart(content) } } },
    });
    const facts = parseFacts(text);
    if (facts) return facts;
  } catch {
    // fall through to the heuristic
  }
  return extractFacts(userPart(content)).slice(0, MAX_FACTS);
}
