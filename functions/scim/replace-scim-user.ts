import { scimReplaceUserRoute } from '../../shared/api/routes/scim.ts';
import { scimRoute } from '../../shared/http/scim-route.ts';
import { fromResource } from '../../shared/scim/user-attributes.ts';
import { replaceUser, toScimUser } from '../../shared/scim/users.ts';

export const handler = scimRoute(scimReplaceUserRoute, async (req, base) => {
  const { user, own } = await replaceUser(req.params.userId!, fromResource(req.body));
  return toScimUser(user, own, base);
});
