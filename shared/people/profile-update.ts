import { newId } from '../db/ids.ts';
import { invalid } from '../errors.ts';
import { assertTeamOpen, changePerson } from './change-person.ts';
import { COMPANY_FIELDS } from './company-values.ts';
import { FAVOURITE_FIELDS, LINK_FIELDS } from './profile-fields.ts';
import type { ProjectItem, UserItem } from './users.ts';

/** A project as a client sends it (the Project input); `id` keeps an existing project's id. */
export interface ProjectInput {
  id?: string;
  name: string;
  link?: string;
  tags?: string[];
  contributions?: string[];
  description?: string;
  contribution?: string;
  role?: string;
  startedAt?: string | null;
  endedAt?: string | null;
  status?: ProjectItem['status'];
}

type TextField =
  | 'name'
  | 'title'
  | 'location'
  | 'bio'
  | 'currentWork'
  | (typeof LINK_FIELDS)[number]
  | (typeof FAVOURITE_FIELDS)[number];
type ListField = 'skills' | 'learningInterests' | 'hobbies' | 'interests';

/** UpdateProfile, already checked against its limits: only the fields sent are present. */
export type ProfileInput = Partial<Record<TextField, string>> &
  Partial<Record<ListField, string[]>> & {
    department?: UserItem['department'];
    teamId?: string | null;
    managerId?: string | null;
    projects?: ProjectInput[];
    joinedOn?: string | null;
    dateOfBirth?: string | null;
    image?: string | null;
  };

const TEXT_FIELDS: TextField[] = [
  'name',
  'title',
  'location',
  'bio',
  'currentWork',
  ...LINK_FIELDS,
  ...FAVOURITE_FIELDS,
];
/** Short labels the directory filters and facets match exactly: stored without surrounding blanks. */
const TRIMMED: TextField[] = ['name', 'title', 'location'];
const LIST_FIELDS: ListField[] = ['skills', 'learningInterests', 'hobbies', 'interests'];

/** List entries without blanks and without case-insensitive repeats (the facets count each value once). */
export function cleanList(values: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of values) {
    const v = raw.trim();
    if (!v || seen.has(v.toLowerCase())) continue;
    seen.add(v.toLowerCase());
    out.push(v);
  }
  return out;
}

/** `YYYY-MM-DD` that names a real day; empty string and null clear. */
function dateOrNull(value: string | null | undefined, field: string): string | null {
  if (value === null || value === undefined || value === '') return null;
  const t = Date.parse(`${value}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== value) {
    throw invalid([`${field}: must be a date as YYYY-MM-DD`]);
  }
  return value;
}

function toProjects(input: ProjectInput[], existing: ProjectItem[]): ProjectItem[] {
  const known = new Set(existing.map((p) => p.id));
  const used = new Set<string>();
  return input.map((p, i) => {
    const startedAt = dateOrNull(p.startedAt, `projects.${i}.startedAt`);
    const endedAt = dateOrNull(p.endedAt, `projects.${i}.endedAt`);
    if (startedAt && endedAt && endedAt < startedAt)
      throw invalid([`projects.${i}.endedAt: must not be before startedAt`]);
    const id = p.id && known.has(p.id) && !used.has(p.id) ? p.id : newId();
    used.add(id);
    return {
      id,
      name: p.name.trim(),
      description: p.description ?? '',
      contribution: p.contribution ?? '',
      role: p.role ?? '',
      startedAt,
      endedAt,
      status: p.status ?? (endedAt ? 'completed' : 'in_progress'),
      tags: cleanList(p.tags ?? []),
      contributions: (p.contributions ?? []).map((c) => c.trim()).filter(Boolean),
      link: p.link ?? '',
    };
  });
}

/** The profile with the sent fields applied (lists replace, empty strings clear, null unassigns). */
export function applyProfileInput(
  u: UserItem,
  input: ProfileInput,
  opts: { allowJoinedOn: boolean; today?: string },
): UserItem {
  const next: UserItem = { ...u };
  for (const f of TEXT_FIELDS) {
    const v = input[f];
    if (v !== undefined) next[f] = TRIMMED.includes(f) ? v.trim() : v;
  }
  if (input.name !== undefined && !next.name) throw invalid(['name: must not be empty']);
  for (const f of LIST_FIELDS) if (input[f] !== undefined) next[f] = cleanList(input[f]!);
  if (input.department !== undefined) next.department = input.department;
  if (input.teamId !== undefined) next.teamId = input.teamId || null;
  if (input.managerId !== undefined) next.managerId = input.managerId || null;
  if (input.projects !== undefined) next.projects = toProjects(input.projects, u.projects ?? []);
  if (input.joinedOn !== undefined && opts.allowJoinedOn) next.joinedOn = dateOrNull(input.joinedOn, 'joinedOn');
  if (input.dateOfBirth !== undefined) {
    next.dateOfBirth = dateOrNull(input.dateOfBirth, 'dateOfBirth');
    const today = opts.today ?? new Date().toISOString().slice(0, 10);
    if (next.dateOfBirth && next.dateOfBirth > today) throw invalid(['dateOfBirth: must not be in the future']);
  }
  if (input.image !== undefined) next.image = input.image;
  return next;
}

/**
 * PATCH /users/me/profile and PATCH /people/{userId}/profile: applies the sent fields in one
 * transaction with everything derived from them (directory, facets, team sizes, report counts).
 * `joinedOn` is only taken from super admins (dropped silently on the self route).
 */
export async function updateProfile(
  userId: string,
  input: ProfileInput,
  opts: { actorId: string | null; allowJoinedOn: boolean },
): Promise<UserItem> {
  return changePerson(
    userId,
    async (u) => {
      // Naming the team one is on changes nothing, unless it was deleted meanwhile (the person not yet
      // cleared by the background): then it is refused as a missing team is (changePerson checks a new one).
      if (input.teamId && input.teamId === u.teamId) await assertTeamOpen(input.teamId);
      return applyProfileInput(u, input, opts);
    },
    {
      actorId: opts.actorId,
      // A super admin's or SCIM's change of these fields is the company's word, even where the value stays.
      companySets: opts.actorId === userId ? [] : COMPANY_FIELDS.filter((f) => input[f] !== undefined),
    },
  );
}
