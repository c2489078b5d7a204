import type { AnyRoute } from '../route-def.ts';
import { attendanceRoutes } from './attendance.ts';
import { authRoutes } from './auth.ts';
import { birthdayRoutes } from './birthdays.ts';
import { eventRoutes } from './events.ts';
import { feedRoutes } from './feed.ts';
import { fileRoutes } from './files.ts';
import { grievanceRoutes } from './grievances.ts';
import { leaveRoutes } from './leave.ts';
import { meetingRoutes } from './meetings.ts';
import { memberRoutes } from './members.ts';
import { notificationRoutes } from './notifications.ts';
import { officeUpdateRoutes } from './office-updates.ts';
import { presenceRoutes } from './presence.ts';
import { profileRoutes } from './profiles.ts';
import { pushRoutes } from './push.ts';
import { realtimeRoutes } from './realtime.ts';
import { systemRoutes } from './system.ts';
import { teamRoutes } from './teams.ts';

/**
 * The route table: every route of the API, once. The CDK stacks, the local runtime, validation and
 * the OpenAPI document all read this list.
 */
export const routes: AnyRoute[] = [
  ...systemRoutes,
  ...authRoutes,
  ...grievanceRoutes,
  ...memberRoutes,
  ...profileRoutes,
  ...teamRoutes,
  ...fileRoutes,
  ...notificationRoutes,
  ...pushRoutes,
  ...presenceRoutes,
  ...realtimeRoutes,
  ...eventRoutes,
  ...meetingRoutes,
  ...birthdayRoutes,
  ...attendanceRoutes,
  ...leaveRoutes,
  ...feedRoutes,
  ...officeUpdateRoutes,
];
