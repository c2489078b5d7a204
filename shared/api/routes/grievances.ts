import * as z from 'zod';
import { CATEGORIES, REPLY_ROLES, STATUSES } from '../../grievances/model.ts';
import { pageQuery } from '../query.ts';
import { API_PREFIX, defineRoute, type RouteAccess } from '../route-def.ts';
import { Count, isoDateTime, Mention, nonBlank, nullableIso, Person, page } from '../schemas/common.ts';

/*
 * The grievance channel (spec 1.2, 2.1, 3.1, 4.1, 4.2). Every route is `anonymous`: the wrapper neither
 * refreshes the session (a write keyed by the caller) nor logs the caller's id. The removed
 * `GET /admin/grievances/{grievanceId}/submitter` is deliberately not declared: the catch-all answers 404.
 */
export const GrievanceCategory = z.enum(CATEGORIES);
export const GrievanceStatus = z.enum(STATUSES);

export const Grievance = z
  .object({
    id: z.string(),
    submitterName: z.string(),
    unread: z.boolean(),
    subject: z.string(),
    description: z.string(),
    category: GrievanceCategory,
    anonymous: z.boolean(),
    status: GrievanceStatus,
    resolvedAt: nullableIso(),
    replyCount: z.number().int(),
    statusNote: z.string().nullable(),
    statusNoteAt: nullableIso(),
    createdAt: isoDateTime(),
    updatedAt: isoDateTime(),
  })
  .meta({ id: 'Grievance' });

const replyFields = {
  id: z.string(),
  grievanceId: z.string(),
  authorName: z.string(),
  authorRole: z.enum(REPLY_ROLES),
  body: z.string(),
  mentions: z.array(Mention),
  createdAt: isoDateTime(),
  editedAt: nullableIso(),
  isMine: z.boolean(),
};
export const GrievanceReply = z.object(replyFields).meta({ id: 'GrievanceReply' });
/** On admin routes: `author` names the handler on a handler's reply, null otherwise. */
export const AdminGrievanceReply = z
  .object({ ...replyFields, author: Person.nullable() })
  .meta({ id: 'AdminGrievanceReply' });

const changeFields = {
  id: z.string(),
  grievanceId: z.string(),
  fromStatus: GrievanceStatus.nullable(),
  toStatus: GrievanceStatus,
  reason: z.string(),
  changedByName: z.string(),
  createdAt: isoDateTime(),
};
export const GrievanceStatusChange = z.object(changeFields).meta({ id: 'GrievanceStatusChange' });
export const AdminGrievanceStatusChange = z
  .object({ ...changeFields, changedBy: Person.nullable() })
  .meta({ id: 'AdminGrievanceStatusChange' });

const BoardPage = page(Grievance).extend({ total: z.number().int() });
const boardQuery = z.strictObject({
  status: GrievanceStatus.optional(),
  category: GrievanceCategory.optional(),
  sort: z.enum(['latest', 'oldest']).optional(),
  ...pageQuery(),
});
const replyBody = z.strictObject({ body: nonBlank(1, 5000) });

const G = `${API_PREFIX}/grievances`;
const A = `${API_PREFIX}/admin/grievances`;
const reads: RouteAccess = { table: 'read' };
const writes: RouteAccess = { table: 'write' };
/** Replies can mention people, and a mention is a push kind (decisions 5): delivery goes through SNS. */
const mentioning: RouteAccess = { table: 'write', sns: true };
const common = { area: 'grievances', anonymous: true } as const;

// ---------------------------------------------------------------- employee routes (4.1)
export const raiseGrievanceRoute = defineRoute({
  ...common,
  name: 'raise-grievance',
  method: 'POST',
  path: G,
  auth: 'session',
  summary: 'Raises a grievance, always anonymously; it is at once visible to every signed-in employee.',
  body: z.strictObject({
    subject: nonBlank(3, 150),
    description: nonBlank(20, 5000),
    category: GrievanceCategory,
    anonymous: z.boolean().optional(),
  }),
  idempotent: true,
  status: 201,
  response: Grievance,
  errors: [400],
  access: writes,
});

export const listGrievancesRoute = defineRoute({
  ...common,
  name: 'list-grievances',
  method: 'GET',
  path: G,
  auth: 'session',
  summary:
    'The board: every grievance, newest (or oldest) first, filtered by status and category, with the filtered total.',
  query: boardQuery,
  status: 200,
  response: BoardPage,
  errors: [400],
  access: reads,
});

export const getGrievanceUnreadCountRoute = defineRoute({
  ...common,
  name: 'get-grievance-unread-count',
  method: 'GET',
  path: `${G}/unread-count`,
  auth: 'session',
  summary: 'How many grievances the caller has not opened (their own never count).',
  status: 200,
  response: Count,
  access: reads,
});

export const getGrievanceRoute = defineRoute({
  ...common,
  name: 'get-grievance',
  method: 'GET',
  path: `${G}/{grievanceId}`,
  auth: 'session',
  summary: 'One grievance (reading it does not mark it read).',
  status: 200,
  response: Grievance,
  errors: [404],
  access: reads,
});

export const readGrievanceRoute = defineRoute({
  ...common,
  name: 'read-grievance',
  method: 'POST',
  path: `${G}/{grievanceId}/read`,
  auth: 'session',
  summary: 'Marks the grievance read for the caller; idempotent, the first time is kept.',
  status: 204,
  errors: [404],
  access: writes,
});

export const listGrievanceRepliesRoute = defineRoute({
  ...common,
  name: 'list-grievance-replies',
  method: 'GET',
  path: `${G}/{grievanceId}/replies`,
  auth: 'session',
  summary: 'The thread, oldest first; every author reads Anonymous.',
  query: z.strictObject(pageQuery()),
  status: 200,
  response: page(GrievanceReply),
  errors: [400, 404],
  access: reads,
});

export const createGrievanceReplyRoute = defineRoute({
  ...common,
  name: 'create-grievance-reply',
  method: 'POST',
  path: `${G}/{grievanceId}/replies`,
  auth: 'session',
  summary: 'Replies as the submitter (the raiser) or as an employee; `@[userId]` tokens tag people.',
  body: replyBody,
  idempotent: true,
  status: 201,
  response: GrievanceReply,
  errors: [400, 404],
  access: mentioning,
});

export const listGrievanceStatusChangesRoute = defineRoute({
  ...common,
  name: 'list-grievance-status-changes',
  method: 'GET',
  path: `${G}/{grievanceId}/status-changes`,
  auth: 'session',
  summary: 'The handling record, newest first, ending with the raised entry; attributed to the Grievance team.',
  status: 200,
  response: z.array(GrievanceStatusChange),
  errors: [404],
  access: reads,
});

export const editGrievanceReplyRoute = defineRoute({
  ...common,
  name: 'edit-grievance-reply',
  method: 'PATCH',
  path: `${G}/{grievanceId}/replies/{replyId}`,
  auth: 'session',
  summary: 'The author edits their reply (sets editedAt); newly tagged people are notified.',
  body: replyBody,
  status: 200,
  response: GrievanceReply,
  errors: [400, 403, 404],
  access: mentioning,
});

export const deleteGrievanceReplyRoute = defineRoute({
  ...common,
  name: 'delete-grievance-reply',
  method: 'DELETE',
  path: `${G}/{grievanceId}/replies/{replyId}`,
  auth: 'session',
  summary: 'The author deletes their reply, for everybody, for good.',
  status: 204,
  errors: [403, 404],
  access: writes,
});

// ---------------------------------------------------------------- handler routes (4.2)
export const adminListGrievancesRoute = defineRoute({
  ...common,
  name: 'admin-list-grievances',
  method: 'GET',
  path: A,
  auth: 'super_admin',
  summary: 'The handler queue: the board, for the grievance team.',
  query: boardQuery,
  status: 200,
  response: BoardPage,
  errors: [400],
  access: reads,
});

export const adminGetGrievanceRoute = defineRoute({
  ...common,
  name: 'admin-get-grievance',
  method: 'GET',
  path: `${A}/{grievanceId}`,
  auth: 'super_admin',
  summary: 'One grievance (the same shape as on employee routes).',
  status: 200,
  response: Grievance,
  errors: [404],
  access: reads,
});

export const adminSetGrievanceStatusRoute = defineRoute({
  ...common,
  name: 'admin-set-grievance-status',
  method: 'PATCH',
  path: `${A}/{grievanceId}/status`,
  auth: 'super_admin',
  summary: 'Moves the grievance to a status with a reason (required on every move); the raiser is notified.',
  body: z.strictObject({ status: GrievanceStatus, reason: nonBlank(3, 1000) }),
  status: 200,
  response: Grievance,
  errors: [400, 404],
  access: writes,
});

export const adminListGrievanceRepliesRoute = defineRoute({
  ...common,
  name: 'admin-list-grievance-replies',
  method: 'GET',
  path: `${A}/{grievanceId}/replies`,
  auth: 'super_admin',
  summary: 'The thread, oldest first, with `author` on handler replies.',
  query: z.strictObject(pageQuery()),
  status: 200,
  response: page(AdminGrievanceReply),
  errors: [400, 404],
  access: reads,
});

export const adminCreateGrievanceReplyRoute = defineRoute({
  ...common,
  name: 'admin-create-grievance-reply',
  method: 'POST',
  path: `${A}/{grievanceId}/replies`,
  auth: 'super_admin',
  summary: 'Replies as the grievance team (authorRole handler); Anonymous on employee routes.',
  body: replyBody,
  idempotent: true,
  status: 201,
  response: AdminGrievanceReply,
  errors: [400, 404],
  access: mentioning,
});

export const adminListGrievanceStatusChangesRoute = defineRoute({
  ...common,
  name: 'admin-list-grievance-status-changes',
  method: 'GET',
  path: `${A}/{grievanceId}/status-changes`,
  auth: 'super_admin',
  summary: 'The handling record, newest first, with `changedBy`.',
  status: 200,
  response: z.array(AdminGrievanceStatusChange),
  errors: [404],
  access: reads,
});

export const grievanceRoutes = [
  raiseGrievanceRoute,
  listGrievancesRoute,
  getGrievanceUnreadCountRoute,
  getGrievanceRoute,
  readGrievanceRoute,
  listGrievanceRepliesRoute,
  createGrievanceReplyRoute,
  listGrievanceStatusChangesRoute,
  editGrievanceReplyRoute,
  deleteGrievanceReplyRoute,
  adminListGrievancesRoute,
  adminGetGrievanceRoute,
  adminSetGrievanceStatusRoute,
  adminListGrievanceRepliesRoute,
  adminCreateGrievanceReplyRoute,
  adminListGrievanceStatusChangesRoute,
];
