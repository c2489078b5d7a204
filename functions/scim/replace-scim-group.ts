import { scimReplaceGroupRoute } from '../../shared/api/routes/scim.ts';
import { scimRoute } from '../../shared/http/scim-route.ts';
import { replaceGroup, toScimGroup, withMembers } from '../../shared/scim/groups.ts';

export const handler = scimRoute(scimReplaceGroupRoute, async (req, base) =>
  toScimGroup(await replaceGroup(req.params.groupId!, req.body), base, withMembers(req.query)),
);
