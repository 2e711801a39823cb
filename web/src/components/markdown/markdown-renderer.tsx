import { createElement, type ReactNode } from 'react';
import { compiler, type MarkdownToJSX } from 'markdown-to-jsx/react';

const HEADING = /^h[1-6]$/;

/**
 * Every element the markdown makes: links open safely in a new tab, and headings get no `id` (the
 * same heading in two notes or answers on one page would repeat an id).
 */
function element(
  tag: Parameters<typeof createElement>[0],
  props: Record<string, unknown> | null,
  ...children: ReactNode[]
): ReactNode {
  let p = props ?? {};
  if (tag === 'a') p = { ...p, target: '_blank', rel: 'noopener noreferrer nofollow' };
  else if (typeof tag === 'string' && HEADING.test(tag) && 'id' in p) {
    const { id: _id, ...rest } = p;
    p = rest;
  }
  return createElement(tag, p, ...children);
}

const options: MarkdownToJSX.Options = {
  // Raw HTML is never trusted: it shows as the text it is. Link and image URLs go through the
  // library's sanitizer (no javascript:, vbscript: or data: other than images).
  disableParsingRawHTML: true,
  disableFrontmatter: true,
  forceBlock: true,
  wrapper: null,
  createElement: element as MarkdownToJSX.Options['createElement'],
};

/**
 * Markdown from users or models (GitHub-flavoured: tables, task lists, strikethrough, autolinks),
 * rendered straight to React elements, sanitized. markdown-to-jsx rather than react-markdown: on
 * the dashboard the remark/rehype pipeline was the longest tasks of the first load (loading ~45 KB
 * gzip and compiling its parser), and it renders a typical answer about four times slower.
 */
export default function MarkdownRenderer({ content }: { content: string }) {
  return <>{compiler(content, options)}</>;
}

/**
 * Small samples, from the plainest up, touching what advice, notes and answers use most (headings,
 * lists, emphasis, links, code, GFM tables): each compiles part of the parser in a short task.
 */
export const WARM_UP_SAMPLES = [
  'a',
  '### A\n\n- **b** and [c](https://example.com)',
  '1. d `e`\n\n| f | g |\n| - | - |\n| h | i |',
];

/**
 * Runs the whole pipeline once on `sample` and throws the result away. A failure is ignored: it is
 * only a warm-up, and a real render reports its own.
 */
export function warmUpMarkdown(sample: string): void {
  try {
    compiler(sample, options);
  } catch {
    // only a warm-up
  }
}
