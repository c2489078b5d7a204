import * as z from '../../util/zod.ts';
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
  personCardFields,
} from '../schemas/common.ts';

const P = `${API_PREFIX}/people`;

const text = (max: number) => z.string().check(z.maxLength(max, `must be at most ${max} characters`));
const list = (items: number, each: number) =>
  z.array(text(each)).check(z.maxLength(items, `must have at most ${items} items`));
/** A date as YYYY-MM-DD, or null / empty string to clear it (the domain checks it names a real day). */
const dateOrClear = () =>
  z.optional(
    z.nullable(
      z.union([z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')), z.literal('')]),
    ),
  );
const strings = (keys: readonly string[], max: number) =>
  Object.fromEntries(keys.map((k) => [k, z.optional(text(max))]));

/** Project input; `id` (optional) keeps the id of a project already on the timeline. */
export const ProjectInput = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.strictObject({
      id: z.optional(z.string().check(z.maxLength(100))),
      name: nonBlank(1, 120),
      link: z.optional(
        z.union([
          z.literal(''),
          z
            .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
            .check(z.maxLength(500, 'must be at most 500 characters')),
        ]),
      ),
      tags: z.optional(list(10, 40)),
      contributions: z.optional(list(8, 200)),
      description: z.optional(text(500)),
      contribution: z.optional(text(500)),
      role: z.optional(text(120)),
      startedAt: dateOrClear(),
      endedAt: dateOrClear(),
      status: z.optional(ProjectStatus),
    }),
    { id: 'ProjectInput' },
  ),
);

/** UpdateProfile, within the documented field limits: every field optional; send only what changed. */
export const UpdateProfile = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.strictObject({
      name: z.optional(nonBlank(1, 120)),
      title: z.optional(text(120)),
      location: z.optional(text(120)),
      department: z.optional(Department),
      teamId: z.optional(z.nullable(z.string().check(z.maxLength(200)))),
      managerId: z.optional(z.nullable(z.string().check(z.maxLength(200)))),
      bio: z.optional(text(500)),
      currentWork: z.optional(text(1000)),
      skills: z.optional(list(20, 40)),
      learningInterests: z.optional(list(10, 40)),
      hobbies: z.optional(list(12, 40)),
      interests: z.optional(list(12, 40)),
      projects: z.optional(z.array(ProjectInput).check(z.maxLength(10, 'must have at most 10 items'))),
      joinedOn: dateOrClear(),
      dateOfBirth: dateOrClear(),
      ...Object.fromEntries(LINK_FIELDS.map((k) => [k, z.optional(linkOrHandle(200))])),
      ...strings(FAVOURITE_FIELDS, 200),
    }),
    { id: 'UpdateProfile' },
  ),
);

export const DirectoryEntry = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      ...personCardFields(),
      location: z.string(),
      bio: z.string(),
      currentWork: z.string(),
      skills: z.array(z.string()),
      team: z.nullable(ProfileTeam),
      joinedAt: isoDateTime(),
      status: AccountStatus,
      presence: Presence,
      lastSeenAt: nullableIso(),
      postCount: z.number().check(z.int()),
    }),
    { id: 'DirectoryEntry' },
  ),
);

export const OrgNode = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      ...personCardFields(),
      currentWork: z.string(),
      status: AccountStatus,
      managerId: z.nullable(z.string()),
    }),
    { id: 'OrgNode' },
  ),
);

export const DirectoryFacets = /* @__PURE__ */ declared(() =>
  z.withMeta(z.object({ skills: z.array(z.string()), titles: z.array(z.string()), locations: z.array(z.string()) }), {
    id: 'DirectoryFacets',
  }),
);

const filterText = () => z.optional(z.string().check(z.maxLength(200, 'must be at most 200 characters')));

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
      status: z.optional(z.enum(['active', 'pending'])),
      sort: z.pipe(
        z.optional(z.enum(['name', 'recent', 'posts'])),
        z.transform((s) => s ?? 'name'),
      ),
      ...pageQuery(),
    }),
    status: 200,
    response: z.object({ items: z.array(DirectoryEntry), nextCursor: z.nullable(z.string()) }),
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
