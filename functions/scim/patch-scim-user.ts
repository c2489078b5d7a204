import { scimPatchUserRoute } from '../../shared/api/routes/scim.ts';
import { scimRoute } from '../../shared/http/scim-route.ts';
import { patchUser, toScimUser } from '../../shared/scim/users.ts';

export const handler = scimRoute(scimPatchUserRoute, async (req, base) => {
  const { user, own } = await patchUser(req.params.userId!, req.body);
  return toScimUser(user, own, base);
});
