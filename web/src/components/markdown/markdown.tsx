import { lazy, Suspense } from 'react';
import { cn } from '../../lib/utils';

// The markdown stack (~40 KB gzip) loads only when a page first shows markdown.
const MarkdownRenderer = lazy(() => import('./markdown-renderer'));

/** Sanitized markdown with the app's prose styles; shows the raw text while the renderer loads. */
export function Markdown({ content, className }: { content: string; className?: string }) {
  return (
    <div className={cn('markdown-body', className)}>
      <Suspense fallback={<p className="whitespace-pre-wrap">{content}</p>}>
        <MarkdownRenderer content={content} />
      </Suspense>
    </div>
  );
}
