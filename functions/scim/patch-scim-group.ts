import { scimPatchGroupRoute } from '../../shared/api/routes/scim.ts';
import { scimRoute } from '../../shared/http/scim-route.ts';
import { patchGroup, toScimGroup, withMembers } from '../../shared/scim/groups.ts';

export const handler = scimRoute(scimPatchGroupRoute, async (req, base) =>
  toScimGroup(await patchGroup(req.params.groupId!, req.body), base, withMembers(req.query)),
);
