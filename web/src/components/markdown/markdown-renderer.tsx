import ReactMarkdown, { type Options } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';

const remarkPlugins: Options['remarkPlugins'] = [remarkGfm];
const rehypePlugins: Options['rehypePlugins'] = [rehypeSanitize];
const components: Options['components'] = {
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer nofollow" />,
};

/**
 * Markdown from users or models, rendered sanitized: raw HTML is never trusted (rehype-sanitize with
 * the GitHub schema) and links open safely in a new tab.
 */
export default function MarkdownRenderer({ content }: { content: string }) {
  return (
    <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
      {content}
    </ReactMarkdown>
  );
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
 * Runs the whole pipeline once on `sample` and throws the result away (ReactMarkdown renders
 * synchronously and uses no hooks, so it can be called as a function). A failure is ignored: it is
 * only a warm-up, and a real render reports its own.
 */
export function warmUpMarkdown(sample: string): void {
  try {
    ReactMarkdown({ remarkPlugins, rehypePlugins, components, children: sample });
  } catch {
    // only a warm-up
  }
}
