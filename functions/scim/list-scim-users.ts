import { scimListUsersRoute } from '../../shared/api/routes/scim.ts';
import { scimRoute } from '../../shared/http/scim-route.ts';
import { listPage, MAX_RESULTS } from '../../shared/scim/discovery.ts';
import { pageOf, parseFilter } from '../../shared/scim/filter.ts';
import { listUsers, toScimUser, USER_FILTERS } from '../../shared/scim/users.ts';

export const handler = scimRoute(scimListUsersRoute, async (req, base) => {
  const filter = parseFilter(req.query.filter, USER_FILTERS);
  const { startIndex, count } = pageOf(req.query.startIndex, req.query.count, MAX_RESULTS);
  const { total, found } = await listUsers(filter, startIndex, count);
  return listPage(
    found.map(({ user, own }) => toScimUser(user, own, base)),
    total,
    startIndex,
  );
});
