import type * as z from 'zod';
import type { AccountStatus, Department, FAVOURITE_FIELDS, LINK_FIELDS, Role } from '../api/schemas/common.ts';
import { userKey } from '../db/keys.ts';
import { getItem, getMany } from '../db/table.ts';

/** A project on a person's work timeline, as stored. */
export interface ProjectItem {
  id: string;
  name: string;
  description: string;
  contribution: string;
  role: string;
  startedAt: string | null;
  endedAt: string | null;
  status: 'in_progress' | 'completed' | 'on_hold';
  tags: string[];
  contributions: string[];
  link: string;
}

/** The person's account and profile item (`userKey`). */
export type UserItem = {
  pk: string;
  sk: string;
  entity: 'User';
  id: string;
  email: string;
  name: string;
  role: z.infer<typeof Role>;
  status: z.infer<typeof AccountStatus>;
  image: string | null;
  title: string;
  location: string;
  bio: string;
  currentWork: string;
  department: z.infer<typeof Department>;
  teamId: string | null;
  managerId: string | null;
  skills: string[];
  learningInterests: string[];
  hobbies: string[];
  interests: string[];
  projects: ProjectItem[];
  joinedAt: string;
  joinedOn: string | null;
  dateOfBirth: string | null;
  isFeatured: boolean;
  featuredNote: string;
  featuredAt: string | null;
  reportCount: number;
  postCount: number;
  lastSeenAt: string | null;
  /** Bumped by every write that moves what the directory derives from the person (optimistic concurrency). */
  rev?: number;
  /** Who made the latest change (the change feed's attribution). */
  actorId?: string;
  /** When the person last changed (absent until the first change after creation: `joinedAt` then). */
  updatedAt?: string;
} & Record<(typeof LINK_FIELDS)[number] | (typeof FAVOURITE_FIELDS)[number], string> &
  Record<string, unknown>;

export const getUser = (userId: string, consistent = false) => getItem<UserItem>(userKey(userId), consistent);

/** Many people by id in batch reads; unknown ids are absent from the map. */
export async function getUsers(ids: Iterable<string>): Promise<Map<string, UserItem>> {
  const unique = [...new Set(ids)].filter(Boolean);
  const found = await getMany<UserItem>(unique.map(userKey));
  return new Map([...found.values()].map((u) => [u.id, u]));
}

/** The blank profile fields of a new account. */
export function blankProfile(): Pick<
  UserItem,
  | 'title'
  | 'location'
  | 'bio'
  | 'currentWork'
  | 'department'
  | 'teamId'
  | 'managerId'
  | 'skills'
  | 'learningInterests'
  | 'hobbies'
  | 'interests'
  | 'projects'
  | 'joinedOn'
  | 'dateOfBirth'
  | 'isFeatured'
  | 'featuredNote'
  | 'featuredAt'
  | 'reportCount'
  | 'postCount'
  | 'image'
  | 'lastSeenAt'
> &
  Record<string, unknown> {
  return {
    title: '',
    location: '',
    bio: '',
    currentWork: '',
    department: '',
    teamId: null,
    managerId: null,
    skills: [],
    learningInterests: [],
    hobbies: [],
    interests: [],
    projects: [],
    joinedOn: null,
    dateOfBirth: null,
    isFeatured: false,
    featuredNote: '',
    featuredAt: null,
    reportCount: 0,
    postCount: 0,
    image: null,
    lastSeenAt: null,
    photoShare: '',
    professionalNetwork: '',
    codeHosting: '',
    microblog: '',
    video: '',
    portfolio: '',
    favoriteMusic: '',
    favoriteMovie: '',
    favoriteFood: '',
    funFact: '',
    dreamDestination: '',
    superpower: '',
    drink: '',
  };
}
