/**
 * What a refused call tells the person (the `detail` the screen shows); the limiter adds when to
 * retry ("Please try again in 12 seconds.").
 */
export const limitMessages = {
  chatTurns: (max: number) => `You are sending messages too quickly (at most ${max} a minute).`,
  runStarts: (max: number) => `Too many runs started (at most ${max} a minute).`,
  /** Task suggestions and briefs: the same limit as run starts (each is a costly model call). */
  generations: (max: number) =>
    `Too many generations started (at most ${max} a minute, runs, suggestions and briefs together).`,
  uploads: (max: number, left: string) =>
    `Too many uploads (at most ${max} a minute). You have ${left} of storage left.`,
  streamTickets: (max: number) => `Too many live connections requested (at most ${max} a minute).`,
  streams: (max: number) =>
    `Too many live connections open at once (at most ${max}). Close another tab or window, then try again.`,
  mcpCallsPerKey: (max: number) => `Too many MCP requests with this API key (at most ${max} a minute).`,
  mcpCallsPerUser: (max: number) =>
    `Too many MCP requests from your API keys together (at most ${max} a minute).`,
  signIn: 'Too many failed sign-in attempts for this account.',
  currentPassword: 'Too many wrong current passwords.',
};

/** Bytes for people: "512 bytes", "3.4 MB", "1 GB". */
export function bytesInWords(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i += 1;
  }
  const rounded = v >= 10 ? Math.floor(v) : Math.floor(v * 10) / 10;
  return `${rounded} ${units[i]}`;
}
