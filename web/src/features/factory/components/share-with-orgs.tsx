import { OrgChecklist } from '../../../components/org-checklist';
import { useOrganizations } from '../../../lib/queries/organizations';

export const SHARE_WITH_ORGS_LEGEND = 'Share with organizations';

/**
 * The caller's own organizations to share a factory item with: their members see and run it (only a
 * platform administrator makes items public). Nothing shows when the caller belongs to none.
 */
export function ShareWithOrgs({
  idPrefix,
  selected,
  onChange,
}: {
  idPrefix: string;
  selected: readonly string[];
  onChange(ids: string[]): void;
}) {
  const orgs = useOrganizations();
  const choices = (orgs.data ?? []).filter((o) => o.my_access_level);
  if (!choices.length) return null;
  return (
    <OrgChecklist
      legend={SHARE_WITH_ORGS_LEGEND}
      idPrefix={`${idPrefix}-share`}
      choices={choices}
      selected={selected}
      onToggle={(id, checked) => onChange(checked ? [...selected, id] : selected.filter((s) => s !== id))}
    />
  );
}

/** The request field: sent only when the owner picked organizations. */
export const sharedOrgsField = (ids: readonly string[]) => (ids.length ? { shared_org_ids: [...ids] } : {});
