import * as z from 'zod';
import { AccountStatus, Department, FAVOURITE_FIELDS, LINK_FIELDS, Role } from '../../people/profile-fields.ts';
import { hasAllowedScheme } from '../../util/links.ts';
import { declared } from '../route-def.ts';

export { AccountStatus, Department, FAVOURITE_FIELDS, LINK_FIELDS, Role };

/** Shapes shared by several areas' responses. Responses are parsed through these, so
 * they are exactly what the OpenAPI document says. */
export const isoDateTime = () => z.string().describe('ISO 8601 with offset');
export const nullableIso = () => isoDateTime().nullable();

export const Presence = /* @__PURE__ */ declared(() => z.enum(['active', 'away', 'offline']));
export const TeamColor = /* @__PURE__ */ declared(() =>
  z.enum(['blue', 'emerald', 'violet', 'amber', 'rose', 'cyan', 'orange', 'slate']),
);

export const Count = /* @__PURE__ */ declared(() => z.object({ count: z.number().int() }).meta({ id: 'Count' }));
export const Mention = /* @__PURE__ */ declared(() =>
  z.object({ id: z.string(), name: z.string(), image: z.string().nullable() }).meta({ id: 'Mention' }),
);
export const Person = /* @__PURE__ */ declared(() =>
  z
    .object({ id: z.string(), name: z.string(), email: z.string(), image: z.string().nullable() })
    .meta({ id: 'Person' }),
);

export const ProfileTeam = /* @__PURE__ */ declared(() =>
  z.object({ id: z.string(), name: z.string(), color: TeamColor }).meta({ id: 'ProfileTeam' }),
);
export const Manager = /* @__PURE__ */ declared(() =>
  z.object({ id: z.string(), name: z.string(), image: z.string().nullable() }).meta({ id: 'Manager' }),
);
export const ProjectStatus = /* @__PURE__ */ declared(() => z.enum(['in_progress', 'completed', 'on_hold']));
export const Project = /* @__PURE__ */ declared(() =>
  z
    .object({
      id: z.string(),
      name: z.string(),
      description: z.string(),
      contribution: z.string(),
      role: z.string(),
      startedAt: z.string().nullable(),
      endedAt: z.string().nullable(),
      status: ProjectStatus,
      tags: z.array(z.string()),
      contributions: z.array(z.string()),
      link: z.string(),
    })
    .meta({ id: 'Project' }),
);

const strings = <K extends string>(keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, z.string()])) as Record<K, z.ZodString>;

export const Profile = /* @__PURE__ */ declared(() =>
  z
    .object({
      id: z.string(),
      name: z.string(),
      email: z.string(),
      role: Role,
      image: z.string().nullable(),
      title: z.string(),
      location: z.string(),
      bio: z.string(),
      currentWork: z.string(),
      department: Department,
      team: ProfileTeam.nullable(),
      skills: z.array(z.string()),
      learningInterests: z.array(z.string()),
      hobbies: z.array(z.string()),
      interests: z.array(z.string()),
      projects: z.array(Project),
      ...strings(LINK_FIELDS),
      ...strings(FAVOURITE_FIELDS),
      joinedAt: isoDateTime(),
      joinedOn: z.string().nullable(),
      dateOfBirth: z.string().nullable(),
      status: AccountStatus,
      presence: Presence,
      lastSeenAt: nullableIso(),
      postCount: z.number().int(),
      manager: Manager.nullable(),
      reportCount: z.number().int(),
      isComplete: z.boolean(),
    })
    .meta({ id: 'Profile' }),
);

export const SessionUser = /* @__PURE__ */ declared(() =>
  z
    .object({
      id: z.string(),
      name: z.string(),
      email: z.string(),
      image: z.string().nullable(),
      role: Role,
      status: AccountStatus,
      emailVerified: z.boolean(),
      createdAt: isoDateTime(),
      updatedAt: isoDateTime(),
    })
    .meta({ id: 'SessionUser' }),
);

export const AdminMember = /* @__PURE__ */ declared(() =>
  z
    .object({
      id: z.string(),
      name: z.string(),
      email: z.string(),
      image: z.string().nullable(),
      title: z.string(),
      role: Role,
      status: AccountStatus,
      managerId: z.string().nullable(),
      managerName: z.string().nullable(),
      joinedAt: isoDateTime(),
      isFeatured: z.boolean(),
      featuredNote: z.string(),
    })
    .meta({ id: 'AdminMember' }),
);

/** A cursor page `{ items, nextCursor }`. */
export const page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });

/** The common error body. */
export const ErrorBody = /* @__PURE__ */ declared(() =>
  z
    .object({
      statusCode: z.number().int(),
      message: z.union([z.string(), z.array(z.string())]),
      error: z.string(),
      code: z
        .string()
        .optional()
        .describe('Authentication routes only: an UPPER_SNAKE_CASE reason such as INVALID_EMAIL_OR_PASSWORD'),
    })
    .meta({ id: 'Error' }),
);

/** Text that must not be only white space where emptiness is an error. */
export const nonBlank = (min: number, max: number) =>
  z
    .string()
    .min(min, `must be at least ${min} characters`)
    .max(max, `must be at most ${max} characters`)
    .refine((s) => s.trim().length > 0, 'must not be empty');

/**
 * "A handle or a full URL": any text up to `max` characters that carries no scheme, or an http(s) one
 * (shared/util/links.ts: clients render these as links, so `javascript:` and the like are refused).
 */
export const linkOrHandle = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine((v) => hasAllowedScheme(v), 'must be a handle or an http(s) URL');

export const email = () => z.email('must be a valid e-mail address').max(254);
export const password = (max: number) =>
  z.string().min(8, 'must be at least 8 characters').max(max, `must be at most ${max} characters`);
