import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Markdown, preloadMarkdown } from './markdown';

// A file of its own: the renderer must not have been loaded by another test of this module.
describe('preloadMarkdown', () => {
  it('makes markdown render at once, without the raw-text fallback', async () => {
    await preloadMarkdown();
    const { container } = render(
      <Markdown content={'### Where you stand\n\n- **ARR** at 70%\n\n[link](https://example.com)'} />,
    );
    // No waiting: the first commit already has the rendered markdown.
    expect(screen.getByRole('heading', { name: 'Where you stand' })).toBeInTheDocument();
    expect(screen.getByText('ARR').tagName).toBe('STRONG');
    expect(screen.getByRole('link', { name: 'link' })).toHaveAttribute(
      'rel',
      expect.stringContaining('noopener'),
    );
    expect(container.querySelector('.whitespace-pre-wrap')).toBeNull();
  });
});
