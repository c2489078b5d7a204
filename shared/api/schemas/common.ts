import { AccountStatus, Department, FAVOURITE_FIELDS, LINK_FIELDS, Role } from '../../people/profile-fields.ts';
import { hasAllowedScheme } from '../../util/links.ts';
import * as z from '../../util/zod.ts';
import { declared } from '../route-def.ts';

export { AccountStatus, Department, FAVOURITE_FIELDS, LINK_FIELDS, Role };

/** Shapes shared by several areas' responses. Responses are parsed through these, so
 * they are exactly what the OpenAPI document says. */
export const isoDateTime = () => z.described(z.string(), 'ISO 8601 with offset');
export const nullableIso = () => z.nullable(isoDateTime());

/** The fields that name a person on a card (the directory, the org chart, birthdays, contributors, the
 * leaderboard): declared once so every card names a person alike. A function, so each shape gets its own
 * instances as before; spread it where the fields stand, so the documented field order is unchanged. */
export const personCardFields = () => ({
  id: z.string(),
  name: z.string(),
  image: z.nullable(z.string()),
  title: z.string(),
});

/** The fields that name an account (a person with their e-mail: the session's user, a member on admin
 * lists): declared once, spread first where they stand, as `personCardFields`. */
export const accountFields = () => ({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  image: z.nullable(z.string()),
});

export const Presence = /* @__PURE__ */ declared(() => z.enum(['active', 'away', 'offline']));
export const TeamColor = /* @__PURE__ */ declared(() =>
  z.enum(['blue', 'emerald', 'violet', 'amber', 'rose', 'cyan', 'orange', 'slate']),
);

export const Count = /* @__PURE__ */ declared(() =>
  z.withMeta(z.object({ count: z.number().check(z.int()) }), { id: 'Count' }),
);
export const Mention = /* @__PURE__ */ declared(() =>
  z.withMeta(z.object({ id: z.string(), name: z.string(), image: z.nullable(z.string()) }), { id: 'Mention' }),
);
export const Person = /* @__PURE__ */ declared(() => z.withMeta(z.object(accountFields()), { id: 'Person' }));

export const ProfileTeam = /* @__PURE__ */ declared(() =>
  z.withMeta(z.object({ id: z.string(), name: z.string(), color: TeamColor }), { id: 'ProfileTeam' }),
);
export const Manager = /* @__PURE__ */ declared(() =>
  z.withMeta(z.object({ id: z.string(), name: z.string(), image: z.nullable(z.string()) }), { id: 'Manager' }),
);
export const ProjectStatus = /* @__PURE__ */ declared(() => z.enum(['in_progress', 'completed', 'on_hold']));
export const Project = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      id: z.string(),
      name: z.string(),
      description: z.string(),
      contribution: z.string(),
      role: z.string(),
      startedAt: z.nullable(z.string()),
      endedAt: z.nullable(z.string()),
      status: ProjectStatus,
      tags: z.array(z.string()),
      contributions: z.array(z.string()),
      link: z.string(),
    }),
    { id: 'Project' },
  ),
);

const strings = <K extends string>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, z.string()])) as Record<K, z.ZodMiniString>;

export const Profile = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      id: z.string(),
      name: z.string(),
      email: z.string(),
      role: Role,
      image: z.nullable(z.string()),
      title: z.string(),
      location: z.string(),
      bio: z.string(),
      currentWork: z.string(),
      department: Department,
      team: z.nullable(ProfileTeam),
      skills: z.array(z.string()),
      learningInterests: z.array(z.string()),
      hobbies: z.array(z.string()),
      interests: z.array(z.string()),
      projects: z.array(Project),
      ...strings(LINK_FIELDS),
      ...strings(FAVOURITE_FIELDS),
      joinedAt: isoDateTime(),
      joinedOn: z.nullable(z.string()),
      dateOfBirth: z.nullable(z.string()),
      status: AccountStatus,
      presence: Presence,
      lastSeenAt: nullableIso(),
      postCount: z.number().check(z.int()),
      manager: z.nullable(Manager),
      reportCount: z.number().check(z.int()),
      isComplete: z.boolean(),
    }),
    { id: 'Profile' },
  ),
);

export const SessionUser = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      ...accountFields(),
      role: Role,
      status: AccountStatus,
      emailVerified: z.boolean(),
      createdAt: isoDateTime(),
      updatedAt: isoDateTime(),
    }),
    { id: 'SessionUser' },
  ),
);

export const AdminMember = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      ...accountFields(),
      title: z.string(),
      role: Role,
      status: AccountStatus,
      managerId: z.nullable(z.string()),
      managerName: z.nullable(z.string()),
      joinedAt: isoDateTime(),
      isFeatured: z.boolean(),
      featuredNote: z.string(),
    }),
    { id: 'AdminMember' },
  ),
);

/** A cursor page `{ items, nextCursor }`. */
export const page = <T extends z.ZodMiniType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.nullable(z.string()) });

/** The common error body. */
export const ErrorBody = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      statusCode: z.number().check(z.int()),
      message: z.union([z.string(), z.array(z.string())]),
      error: z.string(),
      code: z.described(
        z.optional(z.string()),
        'Authentication routes only: an UPPER_SNAKE_CASE reason such as INVALID_EMAIL_OR_PASSWORD',
      ),
    }),
    { id: 'Error' },
  ),
);

/** Text that must not be only white space where emptiness is an error. */
export const nonBlank = (min: number, max: number) =>
  z
    .string()
    .check(z.minLength(min, `must be at least ${min} characters`))
    .check(z.maxLength(max, `must be at most ${max} characters`))
    .check(z.refine((s) => s.trim().length > 0, 'must not be empty'));

/**
 * "A handle or a full URL": any text up to `max` characters that carries no scheme, or an http(s) one
 * (shared/util/links.ts: clients render these as links, so `javascript:` and the like are refused).
 */
export const linkOrHandle = (max: number) =>
  z
    .string()
    .check(z.maxLength(max, `must be at most ${max} characters`))
    .check(z.refine((v) => hasAllowedScheme(v), 'must be a handle or an http(s) URL'));

export const email = () => z.email('must be a valid e-mail address').check(z.maxLength(254));
export const password = (max: number) =>
  z
    .string()
    .check(z.minLength(8, 'must be at least 8 characters'))
    .check(z.maxLength(max, `must be at most ${max} characters`));
