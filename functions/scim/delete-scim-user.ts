import { scimDeleteUserRoute } from '../../shared/api/routes/scim.ts';
import { scimRoute } from '../../shared/http/scim-route.ts';
import { deleteUser } from '../../shared/scim/users.ts';

export const handler = scimRoute(scimDeleteUserRoute, async (req) => {
  await deleteUser(req.params.userId!);
  return null;
});
