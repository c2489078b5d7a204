import { authLegacyForms } from '../auth/migrations.ts';
import { grievanceLegacyForms } from '../grievances/legacy-keys.ts';
import { FOLLOWING_LISTS_MIGRATION } from '../migrations/following-lists.ts';
import { idempotencyLegacyForms } from '../migrations/idempotency-forms.ts';
import { indexBackfillMigration, type LegacyForm, storedFormMigration } from '../migrations/stored-form.ts';
import { WINDOW_INDEXES_MIGRATION } from '../migrations/window-indexes.ts';
import { notificationLegacyForms } from '../notifications/migrations.ts';
import { avatarKeyedTagMigration } from '../people/avatar-migration.ts';
import { directoryRowsMigration, directoryShardsRemovedMigration } from '../people/directory-migrations.ts';
import { directoryAttributeNamesMigration, peopleLegacyForms, teamMembershipsMigration } from '../people/migrations.ts';
import { stepsOf } from './migration-order.ts';
// Every declaring module, so that the stored-form migration knows every entity of this release.
import '../auth/entities.ts';
import '../calendar/entities.ts';
import '../calendar/meetings/entities.ts';
import '../db/idempotency-store.ts';
import '../feed/entities.ts';
import '../grievances/entities.ts';
import '../hr/entities.ts';
import '../live/entities.ts';
import '../notifications/entities.ts';
import '../website/entities.ts';
import '../people/entities.ts';
import '../presence/entities.ts';
import '../push/entities.ts';
import '../migrations/entities.ts';

/** Every older stored form this release still reads, by area (CHANGELOG.md lists each with its release). */
export const legacyForms: readonly LegacyForm[] = [
  ...authLegacyForms,
  ...peopleLegacyForms,
  ...notificationLegacyForms,
  ...grievanceLegacyForms,
  ...idempotencyLegacyForms,
];

/**
 * The steps of the `migrations` schedule: every migration but the grievance area's, which it waits on
 * (migration-order.ts). Nothing here opens a grievance seal, so its function is not granted the
 * grievance key.
 */
export const generalSteps = stepsOf('migrations', [
  storedFormMigration('0001-stored-forms', legacyForms),
  teamMembershipsMigration,
  directoryAttributeNamesMigration,
  avatarKeyedTagMigration,
  indexBackfillMigration(
    WINDOW_INDEXES_MIGRATION,
    'Long meetings (over 6 hours) and their seats, and leave requests ending over 31 days after they were made, on their sparse indexes gsi6 / gsi7',
    ['Meeting', 'MeetingSeat', 'LeaveRequest'],
    legacyForms,
  ),
  indexBackfillMigration(
    FOLLOWING_LISTS_MIGRATION,
    'Follows on gsi1 under the followed person; the following-lists consumer then builds each follower’s list',
    ['Follow'],
    legacyForms,
  ),
  directoryRowsMigration,
  directoryShardsRemovedMigration,
]);
