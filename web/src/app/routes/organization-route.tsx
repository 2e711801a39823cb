import OrganizationPage from '../../features/organization/pages/organization-page';
import { UsageSpendPanel } from '../../features/usage/components/usage-spend-panel';
import { useOrganizations } from '../../lib/queries/organizations';
import { Tabs } from './route-tabs';

/**
 * /app/organization (features/organization); an organization's admins also get its Usage & spend tab
 * (features/usage), one per organization they administer.
 */
export default function OrganizationRoute() {
  const orgs = useOrganizations();
  const administered = (orgs.data ?? []).filter((o) => o.my_access_level === 'admin');
  return (
    <Tabs
      label="Organization"
      tabs={[
        { id: 'members', title: 'Organization', panel: () => <OrganizationPage /> },
        ...administered.map((o) => ({
          id: `usage-${o.id}`,
          title: administered.length === 1 ? 'Usage & spend' : `Usage & spend: ${o.name}`,
          panel: () => <UsageSpendPanel key={o.id} organization={{ id: o.id, name: o.name }} />,
        })),
      ]}
    />
  );
}
