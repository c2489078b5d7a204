import { scimGetUserRoute } from '../../shared/api/routes/scim.ts';
import { scimRoute } from '../../shared/http/scim-route.ts';
import { getScimUser, toScimUser } from '../../shared/scim/users.ts';

export const handler = scimRoute(scimGetUserRoute, async (req, base) => {
  const { user, own } = await getScimUser(req.params.userId!);
  return toScimUser(user, own, base);
});
