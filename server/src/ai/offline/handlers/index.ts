import type { OfflineHandler } from '../types.ts';
import { briefHandler } from './brief.ts';
import { chatHandler } from './chat.ts';
import { commsReplyHandler } from './comms-reply.ts';
import { crewTaskHandler } from './crew-task.ts';
import { memoryExtractionHandler } from './memory-extraction.ts';
import { strategicAdviceHandler } from './strategic-advice.ts';
import { taskSuggestionsHandler } from './task-suggestions.ts';

/**
 * Offline-engine task handlers: `providerOptions: { offline: { task, data } }` picks one (default
 * 'chat'). Each feature registers its own handler here with one import and one line.
 */
export const offlineHandlers: Record<string, OfflineHandler> = {
  brief: briefHandler,
  chat: chatHandler,
  'comms-reply': commsReplyHandler,
  'crew-task': crewTaskHandler,
  'memory-extraction': memoryExtractionHandler,
  'strategic-advice': strategicAdviceHandler,
  'task-suggestions': taskSuggestionsHandler,
};

export type { OfflineHandler, OfflineHandlerInput } from '../types.ts';
