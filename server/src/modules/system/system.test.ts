import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSuite, createTestApp, type TestApp } from '../../../test/helpers.ts';
import { redactUrl } from '../../platform/logging.ts';

apiSuite('system routes, headers and the SPA', () => {
  let t: TestApp;
  let web: string;
  beforeAll(async () => {
    web = mkdtempSync(path.join(tmpdir(), 'cc-web-'));
    mkdirSync(path.join(web, 'assets'));
    writeFileSync(
      path.join(web, 'index.html'),
      '<!doctype html><title>Command Centre</title><div id="root"></div>',
    );
    writeFileSync(path.join(web, 'assets', 'app-abc123.js'), 'console.log(1)');
    t = await createTestApp({ WEB_DIST: web, CONTACT_EMAIL: 'hello@beta.example' });
  });
  afterAll(async () => {
    await t.close();
    rmSync(web, { recursive: true, force: true });
  });

  it('healthz and readyz answer without auth', async () => {
    expect((await t.req({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await t.req({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().status).toBe('ready');
  });

  it('publishes the contact address for the landing page', async () => {
    expect((await t.req({ method: 'GET', url: '/api/public-config' })).json()).toEqual({
      contact_email: 'hello@beta.example',
    });
  });

  it('serves the OpenAPI document with the foundation paths, and the docs page', async () => {
    const doc = (await t.req({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const p of [
      '/api/auth/token',
      '/api/users/me',
      '/api/users/{id}',
      '/api/organizations/{id}/users/{userId}',
    ]) {
      expect(Object.keys(doc.paths)).toContain(p);
    }
    expect((await t.req({ method: 'GET', url: '/api/docs/' })).statusCode).toBe(200);
  });

  it('sends security headers with a strict script policy and a request id', async () => {
    const res = await t.req({ method: 'GET', url: '/' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(String(res.headers['x-request-id'])).toMatch(/^[\w-]+$/);
  });

  it('sends the same security headers on API responses (computed once at start)', async () => {
    const page = await t.req({ method: 'GET', url: '/' });
    const api = await t.req({ method: 'GET', url: '/healthz' });
    for (const h of [
      'content-security-policy',
      'strict-transport-security',
      'x-frame-options',
      'x-content-type-options',
      'referrer-policy',
      'cross-origin-opener-policy',
      'cross-origin-resource-policy',
    ]) {
      expect(api.headers[h], h).toBeTruthy();
      expect(api.headers[h], h).toBe(page.headers[h]);
    }
    expect(api.headers['content-security-policy']).toContain("default-src 'self'");
    expect(api.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(api.headers['x-powered-by']).toBeUndefined();
  });

  it('falls back to index.html for app routes, serves assets, and keeps /api 404s as JSON', async () => {
    const page = await t.req({ method: 'GET', url: '/app/ceodashboard?x=1' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
    expect(page.headers['cache-control']).toBe('no-cache');
    const asset = await t.req({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const missingAsset = await t.req({ method: 'GET', url: '/assets/missing.js' });
    expect(missingAsset.statusCode).toBe(404);
    const api = await t.req({ method: 'GET', url: '/api/nothing-here' });
    expect(api.statusCode).toBe(404);
    expect(api.json().detail).toMatch(/Not found/);
  });

  it('accepts paths with and without the trailing slash', async () => {
    const u = await t.createUser('admin');
    expect((await t.req({ method: 'GET', url: '/api/users', token: u.token })).statusCode).toBe(200);
    expect((await t.req({ method: 'GET', url: '/api/users/', token: u.token })).statusCode).toBe(200);
    expect((await t.req({ method: 'GET', url: '/api/organizations/', token: u.token })).statusCode).toBe(200);
  });
});

describe('log redaction', () => {
  it('removes stream tokens and tickets from logged URLs', () => {
    expect(redactUrl('/api/x/events?token=abc.def&a=1')).toBe('/api/x/events?token=[REDACTED]&a=1');
    expect(redactUrl('/e?a=1&ticket=zzz')).toBe('/e?a=1&ticket=[REDACTED]');
    expect(redactUrl('/plain')).toBe('/plain');
  });
});
