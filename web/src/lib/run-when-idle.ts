/**
 * Runs `fn` in a task of its own once the main thread is idle (a timeout where requestIdleCallback is
 * missing, e.g. jsdom or Safari). For one-off warm-ups (a formatter's locale data, a parser's first
 * run): done apart, they add a short task instead of lengthening the task that needs them, which keeps
 * the page's long tasks (and its Total Blocking Time) down. A failing warm-up is ignored: the real
 * use does the same work again and reports its own error.
 */
export function runWhenIdle(fn: () => void): void {
  const run = () => {
    try {
      fn();
    } catch {
      // only a warm-up
    }
  };
  if (typeof window !== 'undefined' && typeof window.requestIdleCallback === 'function') {
    window.requestIdleCallback(run, { timeout: 2000 });
  } else {
    setTimeout(run, 0);
  }
}
