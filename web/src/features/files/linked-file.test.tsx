import type { TFileItem } from '@cc/contract';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { makeOrg, makeUser } from '../../test/fixtures';
import { type Handler, mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

const file: TFileItem = {
  id: 'f-9',
  name: 'plan.txt',
  content_type: 'text/plain',
  kind: 'text',
  size: 12,
  user_id: 'user-me',
  owner: { id: 'user-me', name: 'Olivia Chen', email: 'ceo@demo.example' },
  conversation_id: null,
  shared_org_ids: [],
  shared_organizations: [],
  can_edit: true,
  can_delete: true,
  can_share: true,
  created_at: '2026-03-12T10:00:00.000Z',
  updated_at: '2026-03-12T10:00:00.000Z',
};

/** The preview's bytes come through XMLHttpRequest: this one answers every GET with the plan's text. */
class TextXhr {
  status = 0;
  response: unknown = null;
  responseText = '';
  responseType = '';
  statusText = '';
  upload = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open() {}
  setRequestHeader() {}
  abort() {}
  send() {
    this.status = 200;
    // jsdom's Blob has no text(): the preview only reads that.
    this.response = { text: async () => 'Hire a CFO in Q3' };
    queueMicrotask(() => this.onload?.());
  }
}

beforeEach(() => vi.stubGlobal('XMLHttpRequest', TextXhr));
afterEach(() => vi.unstubAllGlobals());

function open(path: string, extra: Record<string, Handler>) {
  mockApi({
    'GET /api/users/me': { body: makeUser({ id: 'user-me' }) },
    'GET /api/organizations': { body: [makeOrg()] },
    'GET /api/files': { body: [] },
    ...extra,
  });
  renderApp({ path, token: 'tok' });
}

it("?file=<id> (a citation link) opens the file's preview", async () => {
  open('/app/files?file=f-9', { 'GET /api/files/f-9': { body: file } });
  const dialog = await screen.findByRole('dialog', { name: 'plan.txt' });
  expect(await within(dialog).findByText('Hire a CFO in Q3')).toBeInTheDocument();
});

it('a file of another organization (404) shows that the record is not available', async () => {
  open('/app/files?file=f-x', { 'GET /api/files/f-x': { status: 404, body: { detail: 'File not found' } } });
  expect(await screen.findByText('This record is not available')).toBeInTheDocument();
  expect(screen.queryByRole('dialog')).toBeNull();
});
