import { vi } from 'vitest';

export interface ExpectedWarnings {
  /** The messages of the process warnings emitted since the capture began, oldest first. */
  readonly messages: string[];
  /** Resolves with the first captured message matching `pattern` (already captured, or the next). */
  next(pattern: RegExp): Promise<string>;
  /** Gives `process.emitWarning` back. */
  restore(): void;
}

/**
 * For a test that provokes a fault on purpose: the server reports it with `process.emitWarning`
 * (stderr, for an operator), which under a test would print a warning nobody should act on. Captured
 * here instead, so the test asserts on it and the run's output stays clean.
 */
export function captureWarnings(): ExpectedWarnings {
  const messages: string[] = [];
  const waiting: { pattern: RegExp; resolve: (m: string) => void }[] = [];
  const spy = vi.spyOn(process, 'emitWarning').mockImplementation((warning: string | Error) => {
    const message = typeof warning === 'string' ? warning : warning.message;
    messages.push(message);
    for (const w of waiting.filter((x) => x.pattern.test(message))) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve(message);
    }
  });
  return {
    messages,
    next: (pattern) => {
      const seen = messages.find((m) => pattern.test(m));
      return seen !== undefined
        ? Promise.resolve(seen)
        : new Promise((resolve) => waiting.push({ pattern, resolve }));
    },
    restore: () => spy.mockRestore(),
  };
}
