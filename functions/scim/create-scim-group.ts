import { scimCreateGroupRoute } from '../../shared/api/routes/scim.ts';
import { scimRoute } from '../../shared/http/scim-route.ts';
import { createGroup, toScimGroup, withMembers } from '../../shared/scim/groups.ts';

export const handler = scimRoute(scimCreateGroupRoute, async (req, base) =>
  toScimGroup(await createGroup(req.body), base, withMembers(req.query)),
);
