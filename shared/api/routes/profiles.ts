import * as z from 'zod';
import { pageQuery } from '../query.ts';
import { API_PREFIX, declared, defineRoute } from '../route-def.ts';
import {
  AccountStatus,
  Department,
  FAVOURITE_FIELDS,
  isoDateTime,
  LINK_FIELDS,
  linkOrHandle,
  nonBlank,
  nullableIso,
  Presence,
  Profile,
  ProfileTeam,
  ProjectStatus,
} from '../schemas/common.ts';

const P = `${API_PREFIX}/people`;

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);
const list = (items: number, each: number) => z.array(text(each)).max(items, `must have at most ${items} items`);
/** A date as YYYY-MM-DD, or null / empty string to clear it (the domain checks it names a real day). */
const dateOrClear = () =>
  z
    .union([z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD'), z.literal('')])
    .nullable()
    .optional();
const strings = (keys: readonly string[], max: number) =>
  Object.fromEntries(keys.map((k) => [k, text(max).optional()]));

/** Project input; `id` (optional) keeps the id of a project already on the timeline. */
export const ProjectInput = /* @__PURE__ */ declared(() =>
  z
    .strictObject({
      id: z.string().max(100).optional(),
      name: nonBlank(1, 120),
      link: z
        .union([
          z.literal(''),
          z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(500, 'must be at most 500 characters'),
        ])
        .optional(),
      tags: list(10, 40).optional(),
      contributions: list(8, 200).optional(),
      description: text(500).optional(),
      contribution: text(500).optional(),
      role: text(120).optional(),
      startedAt: dateOrClear(),
      endedAt: dateOrClear(),
      status: ProjectStatus.optional(),
    })
    .meta({ id: 'ProjectInput' }),
);

/** UpdateProfile, within the documented field limits: every field optional; send only what changed. */
export const UpdateProfile = /* @__PURE__ */ declared(() =>
  z
    .strictObject({
      name: nonBlank(1, 120).optional(),
      title: text(120).optional(),
      location: text(120).optional(),
      department: Department.optional(),
      teamId: z.string().max(200).nullable().optional(),
      managerId: z.string().max(200).nullable().optional(),
      bio: text(500).optional(),
      currentWork: text(1000).optional(),
      skills: list(20, 40).optional(),
      learningInterests: list(10, 40).optional(),
      hobbies: list(12, 40).optional(),
      interests: list(12, 40).optional(),
      projects: z.array(ProjectInput).max(10, 'must have at most 10 items').optional(),
      joinedOn: dateOrClear(),
      dateOfBirth: dateOrClear(),
      ...Object.fromEntries(LINK_FIELDS.map((k) => [k, linkOrHandle(200).optional()])),
      ...strings(FAVOURITE_FIELDS, 200),
    })
    .meta({ id: 'UpdateProfile' }),
);

export const DirectoryEntry = /* @__PURE__ */ declared(() =>
  z
    .object({
      id: z.string(),
      name: z.string(),
      image: z.string().nullable(),
      title: z.string(),
      location: z.string(),
      bio: z.string(),
      currentWork: z.string(),
      skills: z.array(z.string()),
      team: ProfileTeam.nullable(),
      joinedAt: isoDateTime(),
      status: AccountStatus,
      presence: Presence,
      lastSeenAt: nullableIso(),
      postCount: z.number().int(),
    })
    .meta({ id: 'DirectoryEntry' }),
);

export const OrgNode = /* @__PURE__ */ declared(() =>
  z
    .object({
      id: z.string(),
      name: z.string(),
      image: z.string().nullable(),
      title: z.string(),
      currentWork: z.string(),
      status: AccountStatus,
      managerId: z.string().nullable(),
    })
    .meta({ id: 'OrgNode' }),
);

export const DirectoryFacets = /* @__PURE__ */ declared(() =>
  z
    .object({ skills: z.array(z.string()), titles: z.array(z.string()), locations: z.array(z.string()) })
    .meta({ id: 'DirectoryFacets' }),
);

const filterText = () => z.string().max(200, 'must be at most 200 characters').optional();

export const getMyProfileRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-my-profile',
    area: 'profiles',
    method: 'GET',
    path: `${API_PREFIX}/users/me/profile`,
    auth: 'session',
    summary: "The caller's profile: the cheapest check that a token is good (carries role).",
    status: 200,
    response: Profile,
  }),
);

export const updateMyProfileRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'update-my-profile',
    area: 'profiles',
    method: 'PATCH',
    path: `${API_PREFIX}/users/me/profile`,
    auth: 'session',
    summary:
      'Changes the sent profile fields (lists replace, empty strings clear, null unassigns); joinedOn is ignored here.',
    body: UpdateProfile,
    status: 200,
    response: Profile,
    errors: [400],
    access: { table: 'write' },
  }),
);

/** Avatars up to 2 MB = 2,097,152 bytes; the wrapper answers 413 above it. */
const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
const avatarUpload = {
  multipart: { maxBytes: AVATAR_MAX_BYTES },
  status: 201 as const,
  response: Profile,
  access: { table: 'write' as const, bucket: [{ prefix: 'avatars/', actions: ['write' as const, 'delete' as const] }] },
  timeout: 20,
  memory: 1024,
};

export const uploadMyAvatarRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'upload-my-avatar',
    area: 'profiles',
    method: 'POST',
    path: `${API_PREFIX}/users/me/avatar`,
    auth: 'session',
    summary:
      'Sets the avatar: multipart, one part `file`; JPG, PNG or WebP up to 2 MB, stored as a 256 px square WebP.',
    ...avatarUpload,
    errors: [400, 413],
  }),
);

export const updatePersonProfileRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'update-person-profile',
    area: 'profiles',
    method: 'PATCH',
    path: `${P}/{userId}/profile`,
    auth: 'super_admin',
    audit: { action: 'member.profile.update', target: { params: ['userId'] } },
    summary: "Changes another person's profile (super admin), joinedOn included.",
    body: UpdateProfile,
    status: 200,
    response: Profile,
    errors: [400, 404],
    access: { table: 'write' },
  }),
);

export const uploadPersonAvatarRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'upload-person-avatar',
    area: 'profiles',
    method: 'POST',
    path: `${P}/{userId}/avatar`,
    auth: 'super_admin',
    audit: { action: 'member.avatar.set', target: { params: ['userId'] } },
    summary: "Sets another person's avatar (super admin), as POST /users/me/avatar.",
    ...avatarUpload,
    errors: [400, 404, 413],
  }),
);

export const listPeopleRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-people',
    area: 'profiles',
    method: 'GET',
    path: P,
    auth: 'session',
    summary:
      'The directory: free text over name, title and bio, exact filters (AND), three sorts, cursor paging. Deactivated people are left out. With `q` or a filter a page reads a bounded number of people, so it may hold fewer than `limit` entries and still a `nextCursor`: follow it until null.',
    query: z.strictObject({
      q: filterText(),
      skill: filterText(),
      role: filterText(),
      location: filterText(),
      team: filterText(),
      status: z.enum(['active', 'pending']).optional(),
      sort: z
        .enum(['name', 'recent', 'posts'])
        .optional()
        .transform((s) => s ?? 'name'),
      ...pageQuery(),
    }),
    status: 200,
    response: z.object({ items: z.array(DirectoryEntry), nextCursor: z.string().nullable() }),
  }),
);

export const listSkillsRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-skills',
    area: 'profiles',
    method: 'GET',
    path: `${P}/skills`,
    auth: 'session',
    summary: 'Every skill of active and pending people, de-duplicated case-insensitively, sorted.',
    status: 200,
    response: z.array(z.string()),
  }),
);

export const getDirectoryFacetsRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-directory-facets',
    area: 'profiles',
    method: 'GET',
    path: `${P}/facets`,
    auth: 'session',
    summary: 'Skills, titles and locations of active and pending people, for the directory filters.',
    status: 200,
    response: DirectoryFacets,
  }),
);

export const getOrgChartRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-org-chart',
    area: 'profiles',
    method: 'GET',
    path: `${API_PREFIX}/org-chart`,
    auth: 'session',
    summary:
      'Every active and pending person, flat; the hierarchy is built by matching managerId to id. Sent gzip-compressed when large and the client accepts it (Accept-Encoding: gzip); uncompressed when it fits the 6 MB response limit, else 406.',
    status: 200,
    response: z.array(OrgNode),
    errors: [406],
    access: { bucket: [{ prefix: 'documents/', actions: ['read'] }] },
  }),
);

export const getPersonRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-person',
    area: 'profiles',
    method: 'GET',
    path: `${P}/{userId}`,
    auth: 'session',
    summary: "A person's profile (deactivated people still answer; status shows it).",
    status: 200,
    response: Profile,
    errors: [404],
  }),
);

export const profileRoutes = [
  getMyProfileRoute,
  updateMyProfileRoute,
  uploadMyAvatarRoute,
  updatePersonProfileRoute,
  uploadPersonAvatarRoute,
  listPeopleRoute,
  listSkillsRoute,
  getDirectoryFacetsRoute,
  getOrgChartRoute,
  getPersonRoute,
];
