import {
  grievanceHandlingMigration,
  grievanceNoticeSealMigration,
  grievanceReaderRefMigration,
  grievanceTotalsNamesMigration,
  legacyNotificationPreview,
} from '../grievances/migrations.ts';
import { notificationSealMigration } from '../notifications/migrations.ts';
import { stepsOf } from './migration-order.ts';

/**
 * The steps of the `grievance-migrations` schedule, the grievance area's function: the migrations
 * that open the grievance channel's seals (and its others), each after the general ones ordered
 * before it (migration-order.ts).
 */
export const grievanceSteps = stepsOf('grievance-migrations', [
  grievanceHandlingMigration,
  grievanceReaderRefMigration,
  grievanceTotalsNamesMigration,
  // Reseals 0.2.0's grievance notification previews: this function holds both keys.
  notificationSealMigration(legacyNotificationPreview),
  grievanceNoticeSealMigration,
]);
