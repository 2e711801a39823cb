import { citationUrl } from '@cc/contract';
import { matchRoutes } from 'react-router';
import { expect, it } from 'vitest';
import { routes } from '../app/router';
import { TYPE_LABEL } from './citation-chips';

it('every type a chip names leads to a page of the app (not the not-found page, not the dashboard)', () => {
  for (const type of Object.keys(TYPE_LABEL).filter((t) => t !== 'web')) {
    const url = new URL(citationUrl(type, 'id-1'), 'http://app.test');
    const matched = matchRoutes(routes, url.pathname) ?? [];
    const leaf = matched.at(-1)?.route;
    expect(leaf?.path, `${type} → ${url.pathname}`).not.toBe('*');
    expect(url.pathname, type).not.toBe('/app/ceodashboard');
    expect([...url.searchParams.values()].concat(url.pathname).join(' '), type).toContain('id-1');
  }
});
