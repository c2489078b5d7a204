import { companyEventChanges, eventAudienceChanges, eventReaderChanges } from '../calendar/change-events.ts';
import { feedChangeMappers } from '../feed/change-events.ts';
import type { ChangeMapper } from '../live/change-events.ts';
import { notificationChanges, notificationsReadAllChanges } from '../notifications/change-events.ts';
import { credentialsChanges, teamChanges, userChanges } from '../people/change-events.ts';
import { presenceChanges } from '../presence/change-events.ts';
import { surveyChanges } from '../surveys/change-events.ts';

/**
 * Every entity's change mapper, by `entity` attribute. Each area adds its own line here (its mappers
 * live next to its domain code, e.g. `shared/feed/change-events.ts`).
 */
export const changeMappers: Record<string, ChangeMapper> = {
  CompanyEvent: companyEventChanges,
  EventAudience: eventAudienceChanges,
  EventReader: eventReaderChanges,
  Notification: notificationChanges,
  NotificationReadAll: notificationsReadAllChanges,
  Presence: presenceChanges,
  User: userChanges,
  Credentials: credentialsChanges,
  Team: teamChanges,
  Survey: surveyChanges,
  ...feedChangeMappers,
};
