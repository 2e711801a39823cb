import { Select } from '../../../components/ui/select';
import { serverDetail } from '../../../lib/api';
import { useOrganizations } from '../../../lib/queries/organizations';
import { notify } from '../../../lib/toast';
import { useSetChargedOrganization } from '../api';

/**
 * Profile: the organization the person's model calls are charged to when a call is made in none of
 * its own (their primary organization; docs/architecture.md "Whom a model call is metered to").
 * Shown only to members of more than one organization: with one there is nothing to choose.
 */
export function ChargedOrganizationField({ current }: { current: string | null }) {
  const orgs = useOrganizations();
  const save = useSetChargedOrganization();
  // A platform admin is listed every organization: only memberships can be chosen.
  const mine = (orgs.data ?? []).filter((o) => o.my_access_level !== null);
  if (mine.length < 2) return null;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor="charged-organization" className="text-muted-foreground text-xs">
        Charge my AI use to
      </label>
      <Select
        id="charged-organization"
        value={current ?? ''}
        disabled={save.isPending}
        onChange={(e) =>
          save.mutate(e.target.value, {
            onSuccess: () => notify.success('Saved', 'Your AI use is now charged to this organization.'),
            onError: (err) => notify.error('Save Failed', serverDetail(err) ?? 'Could not save.'),
          })
        }
        className="w-64"
      >
        {current === null && <option value="">Choose an organization</option>}
        {mine.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </Select>
    </div>
  );
}
