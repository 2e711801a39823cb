import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Markdown } from './markdown';

describe('Markdown', () => {
  it('renders markdown and strips scripts, event handlers and javascript: links', async () => {
    const { container } = render(
      <Markdown
        content={
          '# Title\n\n**bold** <img src=x onerror="alert(1)"> <script>alert(2)</script>\n\n[bad](javascript:alert(3)) [good](https://example.com)'
        }
      />,
    );
    expect(await screen.findByRole('heading', { name: 'Title' })).toBeInTheDocument();
    expect(screen.getByText('bold').tagName).toBe('STRONG');
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('[onerror]')).toBeNull();
    expect(screen.getByText('bad').getAttribute('href') ?? '').not.toMatch(/javascript/i);
    expect(screen.getByText('good')).toHaveAttribute('rel', expect.stringContaining('noopener'));
  });
});
