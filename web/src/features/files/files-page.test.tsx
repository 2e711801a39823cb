import type { TFileItem } from '@cc/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeOrg, makeUser } from '../../test/fixtures';
import { type Handler, mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render';

function makeFile(over: Partial<TFileItem> = {}): TFileItem {
  return {
    id: 'f-1',
    name: 'board-pack.pdf',
    content_type: 'application/pdf',
    kind: 'pdf',
    size: 1536,
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
    ...over,
  };
}

function setup(files: TFileItem[], extra: Record<string, Handler> = {}) {
  const api = mockApi({
    'GET /api/users/me': { body: makeUser({ id: 'user-me' }) },
    'GET /api/organizations': { body: [makeOrg({ id: 'org-1', name: 'Northwind Ventures' })] },
    'GET /api/files': { body: files },
    ...extra,
  });
  renderApp({ path: '/app/files', token: 'tok' });
  return api;
}

/** A stand-in for XMLHttpRequest: the test drives progress and the answer. */
class FakeXhr {
  static last: FakeXhr | null = null;
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } =
    {
      onprogress: null,
    };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  responseType = '';
  status = 0;
  statusText = '';
  responseText = '';
  response: unknown = null;
  headers: Record<string, string> = {};
  method = '';
  url = '';
  body: unknown = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(k: string, v: string) {
    this.headers[k] = v;
  }
  send(body: unknown) {
    this.body = body;
    FakeXhr.last = this;
  }
  abort() {
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total });
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.response = this.responseText;
    this.onload?.();
  }
}

afterEach(() => {
  FakeXhr.last = null;
  vi.unstubAllGlobals();
});

describe('Files page', () => {
  it('lists files with type, size in 1024 steps, date and sharing', async () => {
    const api = setup([
      makeFile(),
      makeFile({
        id: 'f-2',
        name: 'logo.png',
        kind: 'image',
        content_type: 'image/png',
        size: 3 * 1024 * 1024,
        user_id: 'user-other',
        owner: { id: 'user-other', name: 'Maya Patel', email: 'maya@demo.example' },
        shared_org_ids: ['org-1'],
        shared_organizations: [{ id: 'org-1', name: 'Northwind Ventures' }],
        can_edit: false,
        can_delete: false,
        can_share: false,
      }),
    ]);
    const rows = await screen.findAllByTestId('file-row', {}, { timeout: 10_000 });
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('board-pack.pdf');
    expect(rows[0]).toHaveTextContent('PDF');
    expect(rows[0]).toHaveTextContent('1.5 KB');
    expect(rows[1]).toHaveTextContent('3 MB');
    expect(rows[1]).toHaveTextContent('Shared by Maya Patel');
    // a file shared with the caller has no management menu
    expect(within(rows[1]).queryByRole('button', { name: 'More actions for logo.png' })).toBeNull();
    expect(within(rows[1]).getByRole('button', { name: 'Preview logo.png' })).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Search files'), 'logo');
    await waitFor(() => expect(api.calls.some((c) => c.search.get('search') === 'logo')).toBe(true));
  });

  it('shows the empty text', async () => {
    setup([]);
    expect(
      await screen.findByText('No files yet. Upload your first file above.', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
  });

  it('renames with the server rule for names, and deletes after confirmation', async () => {
    const api = setup([makeFile()], {
      'PATCH /api/files/f-1': (c) => ({ body: makeFile({ name: (c.body as { name: string }).name }) }),
      'DELETE /api/files/f-1': { status: 204 },
    });
    await userEvent.click(
      await screen.findByRole('button', { name: 'More actions for board-pack.pdf' }, { timeout: 10_000 }),
    );
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename file' });
    const input = within(dialog).getByLabelText('File name');
    await userEvent.clear(input);
    await userEvent.type(input, '../secret.pdf');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save name' }));
    expect(
      within(dialog).getByText('File names cannot contain slashes or control characters.'),
    ).toBeInTheDocument();
    expect(api.callsTo('PATCH', '/api/files/f-1')).toHaveLength(0);
    await userEvent.clear(input);
    await userEvent.type(input, 'final.pdf');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save name' }));
    await waitFor(() =>
      expect(api.callsTo('PATCH', '/api/files/f-1')[0]?.body).toEqual({ name: 'final.pdf' }),
    );

    await userEvent.click(
      await screen.findByRole('button', { name: 'More actions for board-pack.pdf' }, { timeout: 10_000 }),
    );
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete file?' });
    expect(api.callsTo('DELETE', '/api/files/f-1')).toHaveLength(0);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.callsTo('DELETE', '/api/files/f-1')).toHaveLength(1));
  });

  it('uploads with a progress bar per file and shows the server message on failure', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    setup([]);
    await screen.findByText('No files yet. Upload your first file above.', {}, { timeout: 10_000 });
    const input = screen.getByLabelText('Files to upload');
    fireEvent.change(input, {
      target: { files: [new File(['hello'], 'hello.txt', { type: 'text/plain' })] },
    });

    const xhr = FakeXhr.last as FakeXhr | null;
    if (!xhr) throw new Error('no upload request');
    expect(xhr?.method).toBe('POST');
    expect(xhr?.url).toBe('/api/files');
    expect(xhr?.headers.Authorization).toBe('Bearer tok');
    expect((xhr.body as FormData).getAll('files')).toHaveLength(1);
    act(() => xhr?.progress(50, 100));
    expect(await screen.findByRole('progressbar', { name: 'Upload progress of hello.txt' })).toHaveAttribute(
      'aria-valuenow',
      '50',
    );
    act(() => xhr?.respond(201, [makeFile({ name: 'hello.txt' })]));
    expect(await screen.findByText(/Uploaded/)).toBeInTheDocument();

    fireEvent.change(input, { target: { files: [new File(['x'], 'big.bin')] } });
    act(() => FakeXhr.last?.respond(413, { detail: '"big.bin" is larger than the 25 MB upload limit.' }));
    expect(await screen.findByText('"big.bin" is larger than the 25 MB upload limit.')).toBeInTheDocument();
  });

  it('shows the limit messages (too many uploads, storage full) in the upload list, signed in still', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    setup([]);
    await screen.findByText('No files yet. Upload your first file above.', {}, { timeout: 10_000 });
    const input = screen.getByLabelText('Files to upload');
    const tooMany =
      'Too many uploads (at most 60 a minute). You have 812 MB of storage left. Please try again in 20 seconds.';
    fireEvent.change(input, { target: { files: [new File(['a'], 'a.txt')] } });
    act(() => FakeXhr.last?.respond(429, { detail: tooMany }));
    expect(await screen.findByText(tooMany)).toBeInTheDocument();

    const full = '"b.pdf" (3 MB) is larger than your remaining storage: 1.2 MB of 1 GB left.';
    fireEvent.change(input, { target: { files: [new File(['b'], 'b.pdf')] } });
    act(() => FakeXhr.last?.respond(413, { detail: full }));
    expect(await screen.findByText(full)).toBeInTheDocument();
    expect(localStorage.getItem('authToken')).toBe('tok');
    expect(screen.queryByText('Session Expired')).toBeNull();
  });
});
