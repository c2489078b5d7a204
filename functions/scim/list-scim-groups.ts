import { scimListGroupsRoute } from '../../shared/api/routes/scim.ts';
import { scimRoute } from '../../shared/http/scim-route.ts';
import { listPage, MAX_RESULTS } from '../../shared/scim/discovery.ts';
import { pageOf, parseFilter } from '../../shared/scim/filter.ts';
import { GROUP_FILTERS, listGroups, toScimGroup, withMembers } from '../../shared/scim/groups.ts';

export const handler = scimRoute(scimListGroupsRoute, async (req, base) => {
  const filter = parseFilter(req.query.filter, GROUP_FILTERS);
  const { startIndex, count } = pageOf(req.query.startIndex, req.query.count, MAX_RESULTS);
  const { total, page } = await listGroups(filter, startIndex, count);
  const members = withMembers(req.query);
  return listPage(await Promise.all(page.map((t) => toScimGroup(t, base, members))), total, startIndex);
});
