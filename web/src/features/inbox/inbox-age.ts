/** How long an item has waited, in the largest whole unit ("just now", "5 min", "3 h", "2 d"). */
export function waitingFor(createdAt: string, now = Date.now()): string {
  const minutes = Math.floor((now - new Date(createdAt).getTime()) / 60_000);
  if (!Number.isFinite(minutes) || minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h`;
  return `${Math.floor(hours / 24)} d`;
}

/** What the link to an item's source says, by the kind of source. */
export function sourceLinkLabel(type: string): string {
  if (type === 'comms_thread') return 'Open the thread';
  if (type === 'run') return 'Open the run';
  if (type === 'task_suggestion') return 'Open the suggestions';
  return 'Open the source';
}
