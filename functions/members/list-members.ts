import { listMembers } from '../../shared/api/routes/members.ts';
import { route } from '../../shared/http/route.ts';
import { listMembers as list, toAdminMember } from '../../shared/people/members.ts';

export const handler = route(listMembers, async () => {
  const { users, managers } = await list();
  return users.map((u) => toAdminMember(u, u.managerId ? managers.get(u.managerId) : undefined));
});
