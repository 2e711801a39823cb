import type { ReactNode } from 'react';

/**
 * Where the conversation page shows run controls: the header (badge, picker) or the run panel (a side
 * column on wide screens, a bar above the composer that opens a sheet on small ones).
 */
export type RunControlsPlacement = 'header' | 'composer';

export interface RunControlsSlotProps {
  conversationId: string;
  placement: RunControlsPlacement;
  /** A chat reply is streaming (runs may wait for it). */
  replying: boolean;
  /** The run shown ended (completed or failed): the log goes to its result. */
  onRunEnded?: () => void;
}

/**
 * The crew and flow controls are a feature of their own (features/runs); the route that shows
 * a conversation passes them in, so this feature does not import another one. Absent: no run controls.
 */
export type RenderRunControls = (props: RunControlsSlotProps) => ReactNode;
