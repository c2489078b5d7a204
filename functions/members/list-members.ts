import { listMembersRoute } from '../../shared/api/routes/members.ts';
import { route } from '../../shared/http/route.ts';
import { listMembers } from '../../shared/people/members.ts';

export const handler = route(listMembersRoute, async () => listMembers());
