import {
  directoryRowsKey,
  facetKey,
  notificationCounterKey,
  notificationKey,
  pushTokenKey,
  teamKey,
  teamMemberKey,
  userKey,
} from '../db/keys.ts';
import type { RouteAccess } from './route-def.ts';

/**
 * Item kinds that several areas' functions write for others, as `access.writes` lists them
 * (shared/api/access-policy.ts turns them into `dynamodb:LeadingKeys` patterns).
 */
type Writes = NonNullable<RouteAccess['writes']>;

/** Notifying someone (shared/notifications/): the notification and the recipient's unread counter. */
export const NOTIFIES: Writes = [notificationKey, notificationCounterKey];

/**
 * Pushing what was notified (shared/push/delivery.ts, through `notify`): delivery removes the
 * registrations it finds unfit and disables those whose endpoint is gone.
 */
export const PUSHES: Writes = [pushTokenKey];

/**
 * Changing a person (shared/people/change-person.ts): the profile, and what is derived from it in
 * the same transaction: the directory row, the facet counters, the team's and the manager's counts
 * and the team membership.
 */
export const CHANGES_PEOPLE: Writes = [userKey, directoryRowsKey, facetKey, teamKey, teamMemberKey];
