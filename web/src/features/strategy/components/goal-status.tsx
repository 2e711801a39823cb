import { GOAL_STATUS_COLORS, goalStatusLabel, type TGoalStatus } from '@cc/contract';
import { cn } from '../../../lib/utils';

/** Text and border per status colour (new blue, in progress yellow, done green, failed red). */
export const STATUS_COLOR_CLASSES: Record<'blue' | 'yellow' | 'green' | 'red', string> = {
  blue: 'border-[#1e3a8a] bg-[#172554] text-[#93c5fd]',
  yellow: 'border-[#854d0e] bg-[#2d1f05] text-[#fcd34d]',
  green: 'border-[#065f46] bg-[#022c22] text-[#6ee7b7]',
  red: 'border-[#7f1d1d] bg-[#2a0f12] text-[#fca5a5]',
};

/** The goal's status with underscores replaced by spaces, coloured by status. */
export function GoalStatusBadge({ status }: { status: TGoalStatus }) {
  const color = GOAL_STATUS_COLORS[status];
  return (
    <span
      data-color={color}
      className={cn(
        'inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-medium whitespace-nowrap capitalize',
        STATUS_COLOR_CLASSES[color],
      )}
    >
      {goalStatusLabel(status)}
    </span>
  );
}
