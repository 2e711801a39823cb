import { ComposerRunControls } from './composer-controls';
import { HeaderRunControls } from './header-controls';

/**
 * The crew and flow controls of a conversation. The conversation route hands them to the conversation
 * page (features/conversations), which renders them in two places: the header (the "Crew: Inactive" badge and
 * the crew/flow picker) and above the composer (the "Crew running..." banner, questions for a person,
 * the live timeline and Stop). Both halves share one run per conversation (session-store.ts).
 */
export interface ConversationRunControlsProps {
  conversationId: string;
  /** header: badge and picker; composer: banner and run controls above the composer. */
  placement: 'header' | 'composer';
  /** A chat reply is streaming (runs may wait for it). */
  replying: boolean;
  /** The run shown ended: the page takes the log to its result. */
  onRunEnded?: () => void;
}

export function ConversationRunControls({
  conversationId,
  placement,
  replying,
  onRunEnded,
}: ConversationRunControlsProps) {
  return placement === 'header' ? (
    <HeaderRunControls conversationId={conversationId} replying={replying} />
  ) : (
    <ComposerRunControls conversationId={conversationId} onRunEnded={onRunEnded} />
  );
}
