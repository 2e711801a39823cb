import { ArrowDown } from 'lucide-react';
import { Button } from './ui/button';

/** The "Latest" button over a message log whose reader scrolled up (conversation log, Comms). */
export function JumpToLatest({ onClick }: { onClick: () => void }) {
  return (
    <Button
      variant="secondary"
      size="sm"
      className="absolute right-4 bottom-3 shadow-md"
      onClick={onClick}
      aria-label="Jump to latest message"
    >
      <ArrowDown aria-hidden="true" />
      Latest
    </Button>
  );
}
