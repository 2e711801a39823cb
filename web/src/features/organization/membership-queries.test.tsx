import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../lib/query-client';
import { useAssignableUsers } from '../../lib/queries/users';
import { makeMember } from '../../test/fixtures';
import { mockApi } from '../../test/mock-api';
import { useAddMember } from './api';

const maya = {
  id: 'user-maya',
  name: 'Maya Patel',
  email: 'maya@x.co',
  role: null,
  organization_ids: ['org-1'],
};
const leo = {
  id: 'user-leo',
  name: 'Leo Garcia',
  email: 'leo@x.co',
  role: null,
  organization_ids: ['org-1'],
};

function wrapper() {
  const client = createQueryClient();
  return {
    wrapper: ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    ),
  };
}

describe('membership changes and the shared queries', () => {
  it('a membership change on the Organization page refreshes who can be assigned and messaged', async () => {
    let people = [maya];
    const api = mockApi({
      'GET /api/contacts/assignable': () => ({ body: people }),
      'POST /api/organizations/org-1/users': () => {
        people = [maya, leo];
        return { status: 201, body: makeMember() };
      },
    });
    const { wrapper: w } = wrapper();
    const { result } = renderHook(() => ({ users: useAssignableUsers(), add: useAddMember('org-1') }), {
      wrapper: w,
    });
    await waitFor(() => expect(result.current.users.data).toEqual([maya]));
    await act(() => result.current.add.mutateAsync({ email: 'leo@x.co', org_access_level: 'user' }));
    await waitFor(() => expect(result.current.users.data).toEqual([maya, leo]));
    expect(api.callsTo('GET', '/api/contacts/assignable')).toHaveLength(2);
  });
});
