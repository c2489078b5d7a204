import { scimGetGroupRoute } from '../../shared/api/routes/scim.ts';
import { scimRoute } from '../../shared/http/scim-route.ts';
import { getGroup, toScimGroup, withMembers } from '../../shared/scim/groups.ts';

export const handler = scimRoute(scimGetGroupRoute, async (req, base) =>
  toScimGroup(await getGroup(req.params.groupId!), base, withMembers(req.query)),
);
