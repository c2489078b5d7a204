import { scimDeleteGroupRoute } from '../../shared/api/routes/scim.ts';
import { scimRoute } from '../../shared/http/scim-route.ts';
import { removeGroup } from '../../shared/scim/groups.ts';

export const handler = scimRoute(scimDeleteGroupRoute, async (req) => {
  await removeGroup(req.params.groupId!);
  return null;
});
