import type {
  TAddOrgUserRequest,
  TInvitation,
  TOrganization,
  TOrgMember,
  TUpdateOrgUserRequest,
} from '@cc/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { currentUserKey } from '../../lib/auth';
import { organizationKeys } from '../../lib/queries/organizations';
import { userKeys } from '../../lib/queries/users';

/** An organization as the API returns it, with the caller's rights (`can_manage`, `can_edit`). */
export type Organization = TOrganization;

export const orgKeys = {
  members: (orgId: string) => [...organizationKeys.all, orgId, 'members'] as const,
};

/** The signed-in person's pending invitations (not under orgKeys: they are the invitee's, not an org's). */
export const invitationKeys = { mine: ['invitations', 'mine'] as const };

export const membersQuery = (orgId: string) =>
  queryOptions({
    queryKey: orgKeys.members(orgId),
    queryFn: ({ signal }) =>
      api<TOrgMember[]>(`/api/organizations/${encodeURIComponent(orgId)}/users`, { signal }),
  });

export function useOrgMembers(orgId: string | undefined) {
  return useQuery({ ...membersQuery(orgId ?? ''), enabled: Boolean(orgId) });
}

/** Organization and membership changes can move the signed-in user's own primary organization. */
function useInvalidateOrgs() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: organizationKeys.all }),
      queryClient.invalidateQueries({ queryKey: currentUserKey }),
      // Who the caller may assign tasks to and message follows the memberships.
      queryClient.invalidateQueries({ queryKey: userKeys.assignable() }),
    ]);
}

const orgPath = (orgId: string) => `/api/organizations/${encodeURIComponent(orgId)}`;
const memberPath = (orgId: string, userId: string) => `${orgPath(orgId)}/users/${encodeURIComponent(userId)}`;

export function useCreateOrganization() {
  const invalidate = useInvalidateOrgs();
  return useMutation({
    mutationFn: (name: string) => api<Organization>('/api/organizations', { method: 'POST', json: { name } }),
    onSuccess: invalidate,
  });
}

export function useRenameOrganization() {
  const invalidate = useInvalidateOrgs();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      api<Organization>(orgPath(id), { method: 'PATCH', json: { name } }),
    onSuccess: invalidate,
  });
}

export function useDeleteOrganization() {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateOrgs();
  return useMutation({
    mutationFn: (id: string) => api<void>(orgPath(id), { method: 'DELETE' }),
    onSuccess: (_data, id) => {
      // Its members panel is still on screen: refetched with the rest, its query would only get a 404.
      // The organization leaves the list at once (so the panel goes) and its own queries are dropped.
      queryClient.setQueryData<Organization[]>(organizationKeys.list(), (cur) =>
        cur?.filter((o) => o.id !== id),
      );
      queryClient.removeQueries({ queryKey: [...organizationKeys.all, id] });
      return invalidate();
    },
  });
}

export function useAddMember(orgId: string) {
  const invalidate = useInvalidateOrgs();
  return useMutation({
    mutationFn: (body: TAddOrgUserRequest) =>
      api<TOrgMember>(`${orgPath(orgId)}/users`, { method: 'POST', json: body }),
    onSuccess: invalidate,
  });
}

/** The path names the member's account; an invite (no account yet) by its member id. */
export function memberTargetId(m: TOrgMember): string {
  return m.user_id ?? m.id;
}

export function useUpdateMember(orgId: string) {
  const invalidate = useInvalidateOrgs();
  return useMutation({
    mutationFn: ({ member, changes }: { member: TOrgMember; changes: TUpdateOrgUserRequest }) =>
      api<TOrgMember>(memberPath(orgId, memberTargetId(member)), { method: 'PATCH', json: changes }),
    onSuccess: invalidate,
  });
}

export function useRemoveMember(orgId: string) {
  const invalidate = useInvalidateOrgs();
  return useMutation({
    mutationFn: (member: TOrgMember) =>
      api<void>(memberPath(orgId, memberTargetId(member)), { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}

export function useMyInvitations() {
  return useQuery({
    queryKey: invitationKeys.mine,
    queryFn: ({ signal }) => api<TInvitation[]>('/api/users/me/invitations', { signal }),
  });
}

const invitationPath = (id: string, action: 'accept' | 'decline') =>
  `/api/users/me/invitations/${encodeURIComponent(id)}/${action}`;

/** Accepting adds an organization (and maybe the primary one): the organizations list refreshes. */
export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  const invalidateOrgs = useInvalidateOrgs();
  return useMutation({
    mutationFn: (inv: TInvitation) => api<void>(invitationPath(inv.id, 'accept'), { method: 'POST' }),
    onSettled: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: invitationKeys.mine }), invalidateOrgs()]),
  });
}

export function useDeclineInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (inv: TInvitation) => api<void>(invitationPath(inv.id, 'decline'), { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: invitationKeys.mine }),
  });
}

/** The organization an e-mailed invitation link made the signed-in person a member of. */
export interface ClaimedInvitation {
  organization_id: string;
  organization_name: string;
}

/** Accepts the invitation whose link (its one-time secret) the person opened. */
export function useClaimInvitation() {
  const queryClient = useQueryClient();
  const invalidateOrgs = useInvalidateOrgs();
  return useMutation({
    mutationFn: (token: string) =>
      api<ClaimedInvitation>('/api/users/me/invitations/claim', { method: 'POST', json: { token } }),
    onSettled: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: invitationKeys.mine }), invalidateOrgs()]),
  });
}
