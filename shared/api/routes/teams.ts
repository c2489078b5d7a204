import { Team, TeamName } from '../../people/entities.ts';
import * as z from '../../util/zod.ts';
import { API_PREFIX, declared, defineRoute } from '../route-def.ts';
import { nonBlank, TeamColor } from '../schemas/common.ts';

const T = `${API_PREFIX}/teams`;

/** A team as answers show it. */
export const TeamView = /* @__PURE__ */ declared(() =>
  z.withMeta(z.object({ id: z.string(), name: z.string(), color: TeamColor, memberCount: z.number().check(z.int()) }), {
    id: 'Team',
  }),
);
export const TeamRemoved = /* @__PURE__ */ declared(() =>
  z.withMeta(z.object({ id: z.string(), unassigned: z.number().check(z.int()) }), { id: 'TeamRemoved' }),
);

export const listTeamsRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-teams',
    area: 'teams',
    method: 'GET',
    path: T,
    auth: 'session',
    summary: 'Every team with its member count (active and pending people), by name; unpaged.',
    status: 200,
    response: z.array(TeamView),
  }),
);

export const createTeamRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'create-team',
    area: 'teams',
    method: 'POST',
    path: T,
    auth: 'super_admin',
    audit: { action: 'team.create', target: { created: 'Team' } },
    summary: 'Creates a team; names are unique case-insensitively (409); the colour defaults to slate.',
    body: z.strictObject({ name: nonBlank(1, 60), color: z.optional(TeamColor) }),
    idempotent: true,
    status: 201,
    response: TeamView,
    errors: [400, 409],
    access: { table: 'write', writes: [Team, TeamName] },
  }),
);

export const updateTeamRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'update-team',
    area: 'teams',
    method: 'PATCH',
    path: `${T}/{teamId}`,
    auth: 'super_admin',
    audit: { action: 'team.update', target: { params: ['teamId'] } },
    summary: 'Renames and/or recolours a team.',
    body: z.strictObject({ name: z.optional(nonBlank(1, 60)), color: z.optional(TeamColor) }),
    status: 200,
    response: TeamView,
    errors: [400, 404, 409],
    access: { table: 'write', writes: [Team, TeamName] },
  }),
);

export const deleteTeamRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'delete-team',
    area: 'teams',
    method: 'DELETE',
    path: `${T}/{teamId}`,
    auth: 'super_admin',
    audit: { action: 'team.delete', target: { params: ['teamId'] } },
    summary:
      'Deletes a team; its people are left unassigned (answers how many). Every read shows them without a team at once; their profiles are cleared in the background.',
    status: 200,
    response: TeamRemoved,
    errors: [404],
    // One transaction: the team's mark and its name claim (the people are cleared by the team-deletion consumer).
    access: { table: 'write', writes: [Team, TeamName] },
  }),
);

export const teamRoutes = [listTeamsRoute, createTeamRoute, updateTeamRoute, deleteTeamRoute];
