import { type EntityFields, type EntityItem, entity, shape } from '../db/entity.ts';
import type * as z from '../util/zod.ts';
import { birthdayMonthDay } from './birthday-index.ts';
import { isListed, nameKey, paddedShard } from './listing.ts';
import type { AccountStatus, Department, FAVOURITE_FIELDS, LINK_FIELDS, Role } from './profile-fields.ts';

/** The people area's entities (docs/data-model.md, People), each declared once. */

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

/** The links and favourites of a profile, each a plain string attribute. */
export type LinkField = (typeof LINK_FIELDS)[number];
export type FavouriteField = (typeof FAVOURITE_FIELDS)[number];

/**
 * The company's values of department, team, manager and location (company-values.ts): what audiences
 * select by, as opposed to what the person says about themselves.
 */
export interface CompanyValues {
  department: string;
  teamId: string | null;
  managerId: string | null;
  location: string;
}

type PersonFields = {
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
  /**
   * When the person was last deactivated (the people retention's clock, shared/data-rights/retention.ts).
   * Absent on people deactivated before 0.3.0: the retention sweep starts their clock when it first meets them.
   */
  deactivatedAt?: string;
  /** A legal hold: neither the retention nor a super admin may erase the person while it is set. */
  legalHold?: boolean;
  /** The erasure under way (shared/data-rights/erasure.ts): the person can no longer be reactivated. */
  erasureId?: string;
  /**
   * The company's values of department, team, manager and location (company-values.ts), what audiences
   * select by; absent while they are the profile's own (and on every profile written before audiences).
   */
  company?: CompanyValues;
} & Record<LinkField | FavouriteField, string>;

/**
 * The directory's partition while the person is listed. Only the partition keys leave the directory's
 * three indexes when a person is deactivated (their sort keys stay, as they always did: the posts sort
 * key keeps moving with ADD), so this is a derived segment rather than a `when`.
 */
const listedIn = (u: { status?: string }) => (isListed({ status: u.status ?? '' }) ? 'DIRECTORY' : undefined);

/** The directory's posts index: its numeric sort key is moved with ADD with `postCount` (post-count.ts). */
export const POSTS_INDEX = 'gsi6';

/**
 * A person's profile (also their account record) and every index it is in: members, role, featured
 * (sparse), birthdays (the calendar's, sparse) and the directory's three sorts, whose partition keys
 * are present only while the person is listed, so a deactivated person drops out of all three. The
 * posts sort key (gsi6sk) is the person's `postCount`: written with the whole item, then moved with ADD
 * together with `postCount` (`postCountWrites`), so a change of the person never rewrites it.
 */
export const User = entity({
  name: 'User',
  fields: shape<PersonFields>(),
  key: { pk: ['USER', 'id'], sk: ['PROFILE'] },
  indexes: {
    /** Every member by joining time. */
    members: { index: 'gsi1', pk: ['MEMBERS'], sk: ['joinedAt', 'id'] },
    /** People by role ("is there a super admin", "the last active super admin"). */
    byRole: { index: 'gsi2', pk: ['ROLE', 'role'], sk: ['id'] },
    /** People pinned to Top Contributors, in the order they were featured. */
    featured: {
      index: 'gsi3',
      pk: ['FEATURED'],
      sk: ['featuredAt', 'id'],
      when: (u) => !!(u.isFeatured && u.featuredAt),
    },
    /** Birthdays by month-day (shared/people/birthday-index.ts; query with `bornOn(monthDay)`). */
    birthdays: {
      index: 'gsi5',
      pk: ['BIRTHDAYS', { field: 'dateOfBirth', as: (d: string) => birthdayMonthDay(d) ?? '' }],
      sk: ['id'],
      when: (u) => birthdayMonthDay(u.dateOfBirth) !== undefined,
    },
    /** The directory by name (accents folded, case ignored). */
    byName: { index: 'gsi4', pk: [listedIn], sk: [{ field: 'name', as: nameKey }, 'id'] },
    /** The directory by post count (numeric): moved with ADD (post-count.ts). */
    byPosts: { index: POSTS_INDEX, pk: [listedIn], sk: [(u) => u.postCount ?? 0] },
    /** The directory by joining time (numeric, epoch ms). */
    byJoined: { index: 'gsi7', pk: [listedIn], sk: [(u) => Date.parse(u.joinedAt)] },
  },
});
export type UserItem = EntityItem<typeof User>;
/** What a whole write of a person takes. */
export type UserFields = EntityFields<typeof User>;

/** Who is on a team (every status), kept with the person's `teamId`: team deletion unassigns them from here. */
export const TeamMember = entity({
  name: 'TeamMember',
  fields: shape<{ teamId: string; userId: string; actorId?: string }>(),
  key: { pk: ['TEAM', 'teamId'], sk: ['MEMBER', 'userId'] },
});

export type TeamColor = 'blue' | 'emerald' | 'violet' | 'amber' | 'rose' | 'cyan' | 'orange' | 'slate';

/**
 * A team, listed by name on gsi1 (the list is small and unpaged); its name also lower-cased, the key of
 * its name claim and of the list's order. A deleted team keeps its item, marked `deletingAt`, until the
 * background clearing has unassigned its people; every read treats it as no team.
 */
export const Team = entity({
  name: 'Team',
  fields: shape<{
    id: string;
    name: string;
    nameLower: string;
    color: TeamColor;
    /** Listed people on the team, moved by every change of a person (derived-from-person.ts). */
    memberCount?: number;
    createdAt: string;
    /** Who last created, renamed or deleted it; absent when the identity provider did (SCIM). */
    actorId?: string;
    /**
     * Membership items of the team (`TeamMember`, people of every status whose `teamId` names it), moved
     * with ADD in the transaction of every membership change: what a deletion unassigns.
     */
    memberships?: number;
    /** Every membership change adds one (never goes back): how migration 0007 knows its count held. */
    membershipMoves?: number;
    /** `memberships` holds the count (set at creation, or by migration 0007 for teams created before). */
    membershipsCounted?: boolean;
    /**
     * Set by the team's deletion: from then on the team is no team to every read (`teamsOf`, the
     * directory's team filter, the teams list) and takes no new members, while the background clearing
     * (team-deletion.ts) unassigns its people; then the item goes.
     */
    deletingAt?: string;
    /** The deletion's background clearing (team-deletion.ts): people unassigned so far, last page's time. */
    cleared?: number;
    clearingAt?: string;
  }>(),
  key: { pk: ['TEAM', 'id'], sk: ['TEAM'] },
  indexes: { byName: { index: 'gsi1', pk: ['TEAMS'], sk: ['nameLower', 'id'] } },
});
export type TeamItem = EntityItem<typeof Team>;

/** The claim of a team name (case-insensitively unique), written and removed with the team's name. */
export const TeamName = entity({
  name: 'TeamName',
  fields: shape<{
    /** The claimed name, lower-cased: the claim's key. */
    nameLower: string;
    teamId: string;
    actorId?: string;
  }>(),
  key: { pk: ['TEAMNAME', 'nameLower'], sk: ['TEAMNAME'] },
  // Claims written before they stored their name lack it (migration 0001 stores it from the key).
  legacy: ['nameLower'],
});

const shardSegment = { field: 'shard', as: (shard: number) => paddedShard(shard) } as const;

/**
 * One shard of the directory projection: a compact row (`row_<userId>`, see derived-from-person.ts) per
 * listed person whose id falls in the shard. Rows are set and removed in place, one person at a time.
 */
export const DirectoryShard = entity({
  name: 'DirectoryShard',
  fields: shape<{ shard: number } & { [row: `row_${string}`]: unknown[] }>(),
  key: { pk: ['DIRSHARD', shardSegment], sk: ['ROWS'] },
  // Shards written before they stored their number lack it (migration 0001 stores it from the key).
  legacy: ['shard'],
});

/**
 * The post counts (`posts_<userId>`) of a directory shard's people, moved with ADD by `postCountWrites`
 * (which does not store the shard's number: items it created lack `shard` until migration 0001).
 */
export const DirectoryShardPosts = entity({
  name: 'DirectoryShardPosts',
  fields: shape<{ shard: number } & { [count: `posts_${string}`]: number }>(),
  key: { pk: ['DIRSHARD', shardSegment], sk: ['POSTS'] },
  legacy: ['shard'],
});

export type FacetKind = 'skill' | 'title' | 'location';
/**
 * A distinct skill, title or location of listed people, with how many hold it (`people`, moved with ADD).
 * Its key is the lower-cased value: the first spelling seen is the one shown.
 */
export const DirectoryFacet = entity({
  name: 'DirectoryFacet',
  fields: shape<{ kind: FacetKind; value: string; people: number }>(),
  key: { pk: ['FACETS'], sk: ['kind', { field: 'value', as: (v: string) => v.toLowerCase() }] },
});

/** The directory's partition of per-person rows while the person is listed (directory-rows.ts). */
const rowListedIn = (r: { status?: string }) => (isListed({ status: r.status ?? '' }) ? 'DIRROWS' : undefined);

/**
 * One person's directory row (0.4.0; docs/data-model.md, People): what the filters and `q` of
 * `GET /people` test, lower-cased, next to the sort keys. One item per person, whatever the size of
 * the company, changed in the transaction of every change of the person (derived-from-person.ts); its
 * `postCount` and the posts index's sort key are moved with ADD with the profile's (post-count.ts).
 * Listed people only are in its three indexes (the filtered and searched walks of directory.ts).
 */
export const DirectoryPerson = entity({
  name: 'DirectoryPerson',
  fields: shape<{
    id: string;
    /** The name as the directory sorts it (`nameKey`). */
    nameKey: string;
    /** Trimmed and lower-cased: the exact filters compare these. */
    title: string;
    location: string;
    skills: string[];
    teamId: string | null;
    status: 'active' | 'pending' | 'deactivated';
    joinedAt: string;
    /** Name, title and bio, lower-cased, one per line: what `q` is a substring of. */
    text: string;
    postCount: number;
    /** The person's `rev` when the row was last written (the terms' writes check it, directory-terms.ts). */
    rev: number;
  }>(),
  key: { pk: ['DIRPERSON', 'id'], sk: ['ROW'] },
  indexes: {
    byName: { index: 'gsi4', pk: [rowListedIn], sk: ['nameKey', 'id'] },
    byPosts: { index: POSTS_INDEX, pk: [rowListedIn], sk: [(r) => r.postCount ?? 0] },
    byJoined: { index: 'gsi7', pk: [rowListedIn], sk: [(r) => Date.parse(r.joinedAt)] },
  },
});
export type DirectoryPersonItem = EntityItem<typeof DirectoryPerson>;

/**
 * One term of a listed person (directory-terms.ts): an exact filter value (`s:<skill>`, `t:<title>`,
 * `l:<location>`, `m:<teamId>`, `p:pending`) or a trigram of their name, title or bio (`q:<abc>`). A
 * person's terms are one partition of their own (so brought up to date by one Query); each term's
 * people are one partition of gsi4 by name and of gsi7 by joining time: a filter or `q` reads a page of
 * the term's people, never the company.
 */
export const DirectoryTerm = entity({
  name: 'DirectoryTerm',
  fields: shape<{ userId: string; term: string; nameKey: string; joinedAt: string }>(),
  key: { pk: ['DIRTERMS', 'userId'], sk: ['term'] },
  indexes: {
    byName: { index: 'gsi4', pk: ['DIRTERM', 'term'], sk: ['nameKey', 'userId'] },
    byJoined: { index: 'gsi7', pk: ['DIRTERM', 'term'], sk: [(t) => Date.parse(t.joinedAt)] },
  },
});
