import { describe, expect, it } from 'vitest';
import { PRERENDERED_PATHS, prerenderedFile, renderPage } from './prerender';

// The build writes these pages' HTML so they paint before the app's script runs (issue 17 §5).
describe('prerendered public pages', () => {
  it('renders each public page with its own content, as a signed-out visitor sees it', async () => {
    const login = await renderPage('/login');
    expect(login).toContain('Welcome back');
    expect(login).toContain('id="login-email"');
    // Its form is disabled until the app is live: a click before the script ran must not submit it.
    expect(login).toMatch(/<fieldset disabled=""/);
    expect(await renderPage('/signup')).toContain('Request beta access');
    const landing = await renderPage('/');
    expect(landing).not.toContain('Welcome back');
    expect(landing).toContain('<h1');
  });

  it('names one file per page, the names the server reads', () => {
    expect(PRERENDERED_PATHS.map(prerenderedFile)).toEqual([
      'prerendered/index.html',
      'prerendered/login.html',
      'prerendered/signup.html',
      'prerendered/about.html',
    ]);
  });
});
