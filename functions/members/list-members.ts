import { listMembersRoute } from '../../shared/api/routes/members.ts';
import { route } from '../../shared/http/route.ts';
import { listMembers, toAdminMember } from '../../shared/people/members.ts';

export const handler = route(listMembersRoute, async () => {
  const { users, managers } = await listMembers();
  return users.map((u) => toAdminMember(u, u.managerId ? managers.get(u.managerId) : undefined));
});
