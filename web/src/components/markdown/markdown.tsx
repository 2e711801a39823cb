import { lazy, Suspense } from 'react';
import { cn } from '../../lib/utils';

type RendererModule = typeof import('./markdown-renderer');

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Loads the renderer, then runs it on a few small samples, one task each, before the first real use:
 * the parser's first runs compile its code, which made the first markdown on a page one long task
 * (Lighthouse's Total Blocking Time on the dashboard). A failed load is forgotten, so a later render
 * tries again.
 */
let ready: Promise<RendererModule> | undefined;
/** The renderer once loaded and warmed: later markdown renders with it directly, never suspending. */
let loaded: RendererModule | undefined;
function loadRenderer(): Promise<RendererModule> {
  ready ??= import('./markdown-renderer').then(
    async (m) => {
      for (const sample of m.WARM_UP_SAMPLES) {
        await nextTask();
        m.warmUpMarkdown(sample);
      }
      loaded = m;
      return m;
    },
    (err: unknown) => {
      ready = undefined;
      throw err;
    },
  );
  return ready;
}

// The markdown stack (~40 KB gzip) loads only when a page first shows markdown (or preloads it).
const MarkdownRenderer = lazy(loadRenderer);

/**
 * For a page that will show markdown once its data arrives: gets the renderer ready now, so the
 * markdown then renders at once (no raw-text fallback) and in a short task. Safe to call repeatedly;
 * settles when the renderer is ready (or failed to load: the real render then tries again).
 */
export function preloadMarkdown(): Promise<void> {
  return loadRenderer().then(
    () => undefined,
    () => undefined,
  );
}

/** Sanitized markdown with the app's prose styles; shows the raw text while the renderer loads. */
export function Markdown({ content, className }: { content: string; className?: string }) {
  const Ready = loaded?.default;
  return (
    <div className={cn('markdown-body', className)}>
      {Ready ? (
        <Ready content={content} />
      ) : (
        <Suspense fallback={<p className="whitespace-pre-wrap">{content}</p>}>
          <MarkdownRenderer content={content} />
        </Suspense>
      )}
    </div>
  );
}
