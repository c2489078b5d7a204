import { DocumentChange } from '../documents/entities.ts';
import {
  Comment,
  FeedScore,
  FeedScoreDay,
  Follow,
  MustReadAck,
  Post,
  PostAudience,
  PostListEntry,
  PostReader,
  PostUpload,
} from '../feed/entities.ts';
import { Notification, NotificationCounter } from '../notifications/entities.ts';
import {
  DirectoryFacet,
  DirectoryPerson,
  DirectoryShard,
  DirectoryShardPosts,
  DirectoryTerm,
  Team,
  TeamMember,
  User,
} from '../people/entities.ts';
import { PushToken } from '../push/entities.ts';
import { WebsiteCounts, WebsiteEntry } from '../website/entities.ts';
import type { RouteAccess } from './route-def.ts';

/**
 * Item kinds that several areas' functions write for others, as `access.writes` lists them
 * (shared/api/access-policy.ts turns them into `dynamodb:LeadingKeys` patterns).
 */
type Writes = NonNullable<RouteAccess['writes']>;

/** Notifying someone (shared/notifications/): the notification and the recipient's unread counter. */
export const NOTIFIES: Writes = [Notification, NotificationCounter];

/**
 * Pushing what was notified (shared/push/delivery.ts, through `notify`): delivery removes the
 * registrations it finds unfit and disables those whose endpoint is gone.
 */
export const PUSHES: Writes = [PushToken];

/**
 * Changing a person (shared/people/change-person.ts): the profile, and what is derived from it in
 * the same transaction: the directory row, the facet counters, the team's and the manager's counts
 * and the team membership, and the roster's change (shared/people/roster-row.ts).
 */
export const CHANGES_PEOPLE: Writes = [
  User,
  DirectoryPerson,
  DirectoryTerm,
  DirectoryShard,
  DirectoryFacet,
  Team,
  TeamMember,
  DocumentChange,
];

/**
 * The feed's writes, one list for all its writing functions rather than one per route: a post's
 * partition (the post, its counters, reactions, votes and website entry), the post lists and
 * bookmarks, comments and their votes, follows, the uploads a post takes over, the scores (all-time
 * on the author's account item, per day), the author's post count (on the profile and in the
 * directory), the website counts, and the notifications and pushes that follow.
 */
export const FEED_WRITES: Writes = [
  Post,
  // A targeted post's frozen audience and its author's own reader item (docs/audiences.md).
  PostAudience,
  PostReader,
  // A must-read's people (its state and reminder are in the post's partition).
  MustReadAck,
  WebsiteEntry,
  PostListEntry,
  Comment,
  Follow,
  PostUpload,
  FeedScore,
  FeedScoreDay,
  User,
  DirectoryPerson,
  DirectoryShardPosts,
  WebsiteCounts,
  ...NOTIFIES,
  ...PUSHES,
];
