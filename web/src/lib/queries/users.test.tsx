import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../test/mock-api';
import { createQueryClient } from '../query-client';
import { useAssignableUsers, userKeys } from './users';

function wrapper() {
  const client = createQueryClient();
  return {
    client,
    wrapper: ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    ),
  };
}

describe('the shared assignable-users query', () => {
  it('is one list under one key, and a failed load is an empty list (never an error)', async () => {
    mockApi({ 'GET /api/contacts/assignable': { status: 500, body: { detail: 'down' } } });
    const { client, wrapper: w } = wrapper();
    const { result } = renderHook(() => useAssignableUsers(), { wrapper: w });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toEqual([]);
    expect(client.getQueryData(userKeys.assignable())).toEqual([]);
  });
});
