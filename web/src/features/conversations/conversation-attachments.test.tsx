import type { TFileItem } from '@cc/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../test/mock-api';
import { ConversationAttachments } from './components/conversation-attachments';

const file = (over: Partial<TFileItem>): TFileItem => ({
  id: 'f1',
  name: 'brief.txt',
  content_type: 'text/plain',
  kind: 'text',
  size: 12,
  user_id: 'u1',
  owner: null,
  conversation_id: 'c1',
  shared_org_ids: [],
  shared_organizations: [],
  can_edit: true,
  can_delete: true,
  can_share: true,
  created_at: '2026-03-01T10:00:00.000Z',
  updated_at: '2026-03-01T10:00:00.000Z',
  ...over,
});

/** Stands in for XMLHttpRequest (uploads go through it for progress). */
class FakeXhr {
  static sent: FakeXhr[] = [];
  upload = { onprogress: null };
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
  body: FormData | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(k: string, v: string) {
    this.headers[k] = v;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  abort() {}
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.response = this.responseText;
    this.onload?.();
  }
}

afterEach(() => {
  FakeXhr.sent = [];
  vi.unstubAllGlobals();
  localStorage.clear();
});

function setup(list: () => TFileItem[]) {
  localStorage.setItem('authToken', 'tok');
  const api = mockApi({ 'GET /api/conversations/c1/attachments': () => ({ body: list() }) });
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <ConversationAttachments conversationId="c1" />
    </QueryClientProvider>,
  );
  return api;
}

describe('ConversationAttachments', () => {
  it("shows the conversation's files as chips", async () => {
    setup(() => [file({ id: 'f1', name: 'brief.txt' }), file({ id: 'f2', name: 'budget.csv' })]);
    const chips = await screen.findByRole('list', { name: 'Attached files' });
    expect(
      within(chips)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['brief.txt', 'budget.csv']);
  });

  it('"Attach files" uploads into the conversation with the token, then lists the new file', async () => {
    let files: TFileItem[] = [];
    const api = setup(() => files);
    const button = await screen.findByRole('button', { name: 'Attach files' });
    expect(screen.queryByRole('list', { name: 'Attached files' })).toBeNull();
    const input = screen.getByTestId('attach-files-input') as HTMLInputElement;
    const clicked = vi.spyOn(input, 'click');
    await userEvent.click(button);
    expect(clicked).toHaveBeenCalled();

    await userEvent.upload(input, new File(['Falcon budget: 42000'], 'falcon.txt', { type: 'text/plain' }));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    const xhr = FakeXhr.sent[0];
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/files/?conversation_id=c1');
    expect(xhr.headers.Authorization).toBe('Bearer tok');
    expect((xhr.body as FormData).get('files')).toMatchObject({ name: 'falcon.txt' });
    expect(screen.getByRole('button', { name: 'Attach files' })).toBeDisabled();

    files = [file({ id: 'f9', name: 'falcon.txt' })];
    xhr.respond(201, files);
    const chips = await screen.findByRole('list', { name: 'Attached files' });
    expect(within(chips).getByText('falcon.txt')).toBeTruthy();
    expect(api.callsTo('GET', '/api/conversations/c1/attachments').length).toBeGreaterThanOrEqual(2);
    expect(screen.getByRole('button', { name: 'Attach files' })).toBeEnabled();
  });
});
