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

  it('renders GitHub-flavoured markdown: tables, task lists, strikethrough, autolinks, code', async () => {
    const { container } = render(
      <Markdown
        content={
          '| KPI | Now |\n| --- | ---: |\n| ARR | 70% |\n\n- [x] done\n- [ ] open\n\n~~old~~ see https://example.com/a\n\n```ts\nconst a = 1;\n```'
        }
      />,
    );
    expect(await screen.findByRole('table')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'KPI' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: '70%' })).toBeInTheDocument();
    const boxes = screen.getAllByRole('checkbox');
    expect(boxes.map((b) => (b as HTMLInputElement).checked)).toEqual([true, false]);
    expect(container.querySelector('del')?.textContent).toBe('old');
    expect(screen.getByRole('link', { name: 'https://example.com/a' })).toHaveAttribute('target', '_blank');
    expect(container.querySelector('pre code')?.textContent).toContain('const a = 1;');
  });

  it('shows raw HTML as text, blocks data: and javascript: URLs, and gives headings no id', async () => {
    const { container } = render(
      <Markdown
        content={
          '## Plan\n\n<b onclick="x()">raw</b> <iframe src="https://evil.example"></iframe>\n\n[d](data:text/html;base64,PHNjcmlwdD4=) ![i](javascript:alert(1))'
        }
      />,
    );
    expect(await screen.findByRole('heading', { name: 'Plan' })).not.toHaveAttribute('id');
    expect(container.querySelector('b, iframe, [onclick]')).toBeNull();
    expect(container.textContent).toContain('<b onclick="x()">raw</b>');
    expect(screen.getByText('d').getAttribute('href') ?? '').not.toMatch(/^data:/i);
    expect(container.querySelector('img')?.getAttribute('src') ?? '').not.toMatch(/javascript/i);
  });
});
