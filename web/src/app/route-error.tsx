import { useRouteError } from 'react-router';

/** Last-resort screen for a render error or a chunk that failed to load (e.g. after a deploy). */
export function RouteError() {
  const error = useRouteError();
  const chunkFailed =
    error instanceof Error && /dynamically imported module|Loading chunk/i.test(error.message);
  return (
    <div className="flex min-h-dvh items-center justify-center p-4">
      <div
        role="alert"
        className="flex max-w-md flex-col items-center gap-4 rounded-xl border border-border bg-card p-8 text-center"
      >
        <h1 className="text-xl font-semibold">Something went wrong</h1>
        <p className="text-sm text-muted-foreground">
          {chunkFailed
            ? 'A new version of the app is available. Reload the page to continue.'
            : 'An unexpected error occurred. Reload the page to try again.'}
        </p>
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="h-10 rounded-md bg-primary px-4 text-sm font-medium text-primary-foreground"
        >
          Reload
        </button>
      </div>
    </div>
  );
}
