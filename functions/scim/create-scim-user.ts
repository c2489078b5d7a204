import { scimCreateUserRoute } from '../../shared/api/routes/scim.ts';
import { scimRoute } from '../../shared/http/scim-route.ts';
import { fromResource } from '../../shared/scim/user-attributes.ts';
import { createUser, toScimUser } from '../../shared/scim/users.ts';

export const handler = scimRoute(scimCreateUserRoute, async (req, base) => {
  const { user, own } = await createUser(fromResource(req.body));
  return toScimUser(user, own, base);
});
