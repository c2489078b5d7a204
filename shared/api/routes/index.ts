import type { AnyRoute } from '../route-def.ts';
import { attendanceRoutes } from './attendance.ts';
import { audienceRoutes } from './audiences.ts';
import { auditRoutes } from './audit.ts';
import { authRoutes } from './auth.ts';
import { birthdayRoutes } from './birthdays.ts';
import { dataRightsRoutes } from './data-rights.ts';
import { eventRoutes } from './events.ts';
import { feedRoutes } from './feed.ts';
import { fileRoutes } from './files.ts';
import { grievanceRoutes } from './grievances.ts';
import { leaveRoutes } from './leave.ts';
import { meetingRoutes } from './meetings.ts';
import { memberRoutes } from './members.ts';
import { moderationRoutes } from './moderation.ts';
import { notificationRoutes } from './notifications.ts';
import { officeUpdateRoutes } from './office-updates.ts';
import { presenceRoutes } from './presence.ts';
import { profileRoutes } from './profiles.ts';
import { pushRoutes } from './push.ts';
import { reachRoutes } from './reach.ts';
import { realtimeRoutes } from './realtime.ts';
import { scimRoutes } from './scim.ts';
import { ssoRoutes } from './sso.ts';
import { surveyRoutes } from './surveys.ts';
import { systemRoutes } from './system.ts';
import { teamRoutes } from './teams.ts';
import { uploadRoutes } from './uploads.ts';

/**
 * The route table: every route of the API, once. The CDK stacks, the local runtime, validation and
 * the OpenAPI document all read this list.
 */
export const routes: AnyRoute[] = [
  ...systemRoutes,
  ...authRoutes,
  ...ssoRoutes,
  ...grievanceRoutes,
  ...memberRoutes,
  ...dataRightsRoutes,
  ...auditRoutes,
  ...profileRoutes,
  ...teamRoutes,
  ...audienceRoutes,
  ...surveyRoutes,
  ...fileRoutes,
  ...uploadRoutes,
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
  ...reachRoutes,
  ...officeUpdateRoutes,
  ...moderationRoutes,
  ...scimRoutes,
];

/**
 * What each `area` of the route table covers: the OpenAPI document declares every area as a tag with
 * this text, so generated clients and reference pages group and explain the operations.
 */
export const areaDescriptions: Record<string, string> = {
  system: 'Health check and this description of the API.',
  auth: 'Sign-in, sessions and passwords.',
  grievances: 'The anonymous grievance channel: grievances, replies and the board.',
  members:
    "Accounts of the company: invitations, roles and deactivation; people's data exports, erasure of people who left, legal holds and the admin audit log (super admins).",
  profiles: "People's profiles and the directory, and a copy of one's own data (export).",
  teams: 'Teams and their members.',
  audiences:
    'Audiences: named rules over what the company controls (department, team, manager chain, role, location, SCIM groups, named people), with their counts and people (super admins; beyond the specification, docs/audiences.md).',
  surveys:
    'Pulse surveys: questions, audiences, recurring runs, answers kept apart from the people who gave them, and results that cannot single anyone out (beyond the specification, docs/surveys.md).',
  files: 'Uploaded files and images.',
  notifications: "The caller's notifications.",
  push: 'Push notification subscriptions.',
  presence: 'Who is active, away or offline.',
  realtime: 'The live-update stream.',
  events: 'Company events.',
  meetings: 'Meetings, their participants and schedules.',
  birthdays: 'Birthdays and work anniversaries.',
  attendance: 'Check-in and check-out records.',
  leave: 'Leave requests and their approval.',
  feed: 'Posts, comments, reactions, polls and bookmarks.',
  reach:
    'Reach: what people have seen of posts, counted as it happens, per slice with small slices suppressed, rankings, and optional read receipts (beyond the specification, docs/reach.md).',
  'office-updates': 'Updates from the office and the public website.',
  moderation:
    'Reports of posts and comments, and their review by super admins (beyond the specification; docs/moderation.md).',
  scim: 'SCIM 2.0 provisioning (Entra ID, Okta) with the SCIM bearer token, not a session (docs/scim.md).',
};
