import { ComposerRunControls } from './crew-controls/composer-controls';
import { HeaderRunControls } from './crew-controls/header-controls';

/**
 * The crew and flow controls of a conversation, rendered by the conversation page in two places:
 * the header (the "Crew: Inactive" badge and the crew/flow picker) and above the composer (the
 * "Crew running..." banner, questions for a person, the live timeline and Stop). Both halves share
 * one run per conversation (crew-controls/session-store.ts).
 */
export interface ConversationRunControlsProps {
  conversationId: string;
  /** header: badge and picker; composer: banner and run controls above the composer. */
  placement: 'header' | 'composer';
  /** A chat reply is streaming (runs may wait for it). */
  replying: boolean;
}

export function ConversationRunControls({
  conversationId,
  placement,
  replying,
}: ConversationRunControlsProps) {
  return placement === 'header' ? (
    <HeaderRunControls conversationId={conversationId} replying={replying} />
  ) : (
    <ComposerRunControls conversationId={conversationId} />
  );
}
