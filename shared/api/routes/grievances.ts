import { CATEGORIES, REPLY_ROLES, STATUSES } from '../../grievances/vocabulary.ts';
import * as z from '../../util/zod.ts';
import { pageQuery } from '../query.ts';
import { API_PREFIX, declared, defineRoute, type RouteAccess } from '../route-def.ts';
import { Count, isoDateTime, Mention, nonBlank, nullableIso, Person, page } from '../schemas/common.ts';

/*
 * The grievance channel. Every route is `anonymous`: the wrapper neither
 * refreshes the session (a write keyed by the caller) nor logs the caller's id. The removed
 * `GET /admin/grievances/{grievanceId}/submitter` is deliberately not declared: the catch-all answers 404.
 */
export const GrievanceCategory = /* @__PURE__ */ declared(() => z.enum(CATEGORIES));
export const GrievanceStatus = /* @__PURE__ */ declared(() => z.enum(STATUSES));

export const Grievance = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      id: z.string(),
      submitterName: z.string(),
      unread: z.boolean(),
      subject: z.string(),
      description: z.string(),
      category: GrievanceCategory,
      anonymous: z.boolean(),
      status: GrievanceStatus,
      resolvedAt: nullableIso(),
      replyCount: z.number().check(z.int()),
      statusNote: z.nullable(z.string()),
      statusNoteAt: nullableIso(),
      createdAt: isoDateTime(),
      updatedAt: isoDateTime(),
    }),
    { id: 'Grievance' },
  ),
);

const replyFields = /* @__PURE__ */ declared(() => ({
  id: z.string(),
  grievanceId: z.string(),
  authorName: z.string(),
  authorRole: z.enum(REPLY_ROLES),
  body: z.string(),
  mentions: z.array(Mention),
  createdAt: isoDateTime(),
  editedAt: nullableIso(),
  isMine: z.boolean(),
}));
export const GrievanceReply = /* @__PURE__ */ declared(() =>
  z.withMeta(z.object(replyFields), { id: 'GrievanceReply' }),
);
/** On admin routes: `author` names the handler on a handler's reply, null otherwise. */
export const AdminGrievanceReply = /* @__PURE__ */ declared(() =>
  z.withMeta(z.object({ ...replyFields, author: z.nullable(Person) }), { id: 'AdminGrievanceReply' }),
);

const changeFields = /* @__PURE__ */ declared(() => ({
  id: z.string(),
  grievanceId: z.string(),
  fromStatus: z.nullable(GrievanceStatus),
  toStatus: GrievanceStatus,
  reason: z.string(),
  changedByName: z.string(),
  createdAt: isoDateTime(),
}));
export const GrievanceStatusChange = /* @__PURE__ */ declared(() =>
  z.withMeta(z.object(changeFields), { id: 'GrievanceStatusChange' }),
);
export const AdminGrievanceStatusChange = /* @__PURE__ */ declared(() =>
  z.withMeta(z.object({ ...changeFields, changedBy: z.nullable(Person) }), { id: 'AdminGrievanceStatusChange' }),
);

const BoardPage = /* @__PURE__ */ declared(() => z.extend(page(Grievance), { total: z.number().check(z.int()) }));
const boardQuery = /* @__PURE__ */ declared(() =>
  z.strictObject({
    status: z.optional(GrievanceStatus),
    category: z.optional(GrievanceCategory),
    sort: z.optional(z.enum(['latest', 'oldest'])),
    ...pageQuery(),
  }),
);
const replyBody = /* @__PURE__ */ declared(() => z.strictObject({ body: nonBlank(1, 5000) }));

const employeePath = `${API_PREFIX}/grievances`;
const handlerPath = `${API_PREFIX}/admin/grievances`;
const readsTable: RouteAccess = { table: 'read' };
const writesTable: RouteAccess = { table: 'write' };
/** Replies can mention people, and a mention is a push kind: delivery goes through SNS. */
const writesAndPushesMentions: RouteAccess = { table: 'write', sns: true };
/** What every grievance route shares: its area, and no caller id written or logged. */
const grievanceRoute = { area: 'grievances', anonymous: true } as const;

// ---------------------------------------------------------------- employee routes (4.1)
export const raiseGrievanceRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...grievanceRoute,
    name: 'raise-grievance',
    method: 'POST',
    path: employeePath,
    auth: 'session',
    summary: 'Raises a grievance, always anonymously; it is at once visible to every signed-in employee.',
    body: z.strictObject({
      subject: nonBlank(3, 150),
      description: nonBlank(20, 5000),
      category: GrievanceCategory,
      anonymous: z.optional(z.boolean()),
    }),
    idempotent: true,
    status: 201,
    response: Grievance,
    errors: [400],
    access: writesTable,
  }),
);

export const listGrievancesRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...grievanceRoute,
    name: 'list-grievances',
    method: 'GET',
    path: employeePath,
    auth: 'session',
    summary:
      'The board: every grievance, newest (or oldest) first, filtered by status and category, with the filtered total.',
    query: boardQuery,
    status: 200,
    response: BoardPage,
    errors: [400],
    access: readsTable,
  }),
);

export const getGrievanceUnreadCountRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...grievanceRoute,
    name: 'get-grievance-unread-count',
    method: 'GET',
    path: `${employeePath}/unread-count`,
    auth: 'session',
    summary: 'How many grievances the caller has not opened (their own never count).',
    status: 200,
    response: Count,
    access: readsTable,
  }),
);

export const getGrievanceRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...grievanceRoute,
    name: 'get-grievance',
    method: 'GET',
    path: `${employeePath}/{grievanceId}`,
    auth: 'session',
    summary: 'One grievance (reading it does not mark it read).',
    status: 200,
    response: Grievance,
    errors: [404],
    access: readsTable,
  }),
);

export const readGrievanceRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...grievanceRoute,
    name: 'read-grievance',
    method: 'POST',
    path: `${employeePath}/{grievanceId}/read`,
    auth: 'session',
    summary: 'Marks the grievance read for the caller; idempotent, the first time is kept.',
    status: 204,
    errors: [404],
    access: writesTable,
  }),
);

export const listGrievanceRepliesRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...grievanceRoute,
    name: 'list-grievance-replies',
    method: 'GET',
    path: `${employeePath}/{grievanceId}/replies`,
    auth: 'session',
    summary: 'The thread, oldest first; every author reads Anonymous.',
    query: z.strictObject(pageQuery()),
    status: 200,
    response: page(GrievanceReply),
    errors: [400, 404],
    access: readsTable,
  }),
);

export const createGrievanceReplyRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...grievanceRoute,
    name: 'create-grievance-reply',
    method: 'POST',
    path: `${employeePath}/{grievanceId}/replies`,
    auth: 'session',
    summary: 'Replies as the submitter (the raiser) or as an employee; `@[userId]` tokens tag people.',
    body: replyBody,
    idempotent: true,
    status: 201,
    response: GrievanceReply,
    errors: [400, 404],
    access: writesAndPushesMentions,
  }),
);

export const listGrievanceStatusChangesRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...grievanceRoute,
    name: 'list-grievance-status-changes',
    method: 'GET',
    path: `${employeePath}/{grievanceId}/status-changes`,
    auth: 'session',
    summary: 'The handling record, newest first, ending with the raised entry; attributed to the Grievance team.',
    status: 200,
    response: z.array(GrievanceStatusChange),
    errors: [404],
    access: readsTable,
  }),
);

export const editGrievanceReplyRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...grievanceRoute,
    name: 'edit-grievance-reply',
    method: 'PATCH',
    path: `${employeePath}/{grievanceId}/replies/{replyId}`,
    auth: 'session',
    summary: 'The author edits their reply (sets editedAt); newly tagged people are notified.',
    body: replyBody,
    status: 200,
    response: GrievanceReply,
    errors: [400, 403, 404],
    access: writesAndPushesMentions,
  }),
);

export const deleteGrievanceReplyRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...grievanceRoute,
    name: 'delete-grievance-reply',
    method: 'DELETE',
    path: `${employeePath}/{grievanceId}/replies/{replyId}`,
    auth: 'session',
    summary: 'The author deletes their reply, for everybody, for good.',
    status: 204,
    errors: [403, 404],
    access: writesTable,
  }),
);

// ---------------------------------------------------------------- handler routes (4.2)
export const adminListGrievancesRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...grievanceRoute,
    name: 'admin-list-grievances',
    method: 'GET',
    path: handlerPath,
    auth: 'super_admin',
    summary: 'The handler queue: the board, for the grievance team.',
    query: boardQuery,
    status: 200,
    response: BoardPage,
    errors: [400],
    access: readsTable,
  }),
);

export const adminGetGrievanceRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...grievanceRoute,
    name: 'admin-get-grievance',
    method: 'GET',
    path: `${handlerPath}/{grievanceId}`,
    auth: 'super_admin',
    summary: 'One grievance (the same shape as on employee routes).',
    status: 200,
    response: Grievance,
    errors: [404],
    access: readsTable,
  }),
);

export const adminSetGrievanceStatusRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...grievanceRoute,
    name: 'admin-set-grievance-status',
    method: 'PATCH',
    path: `${handlerPath}/{grievanceId}/status`,
    auth: 'super_admin',
    audit: { action: 'grievance.status.set', target: { params: ['grievanceId'] } },
    summary: 'Moves the grievance to a status with a reason (required on every move); the raiser is notified.',
    body: z.strictObject({ status: GrievanceStatus, reason: nonBlank(3, 1000) }),
    status: 200,
    response: Grievance,
    errors: [400, 404],
    access: writesTable,
  }),
);

export const adminListGrievanceRepliesRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...grievanceRoute,
    name: 'admin-list-grievance-replies',
    method: 'GET',
    path: `${handlerPath}/{grievanceId}/replies`,
    auth: 'super_admin',
    summary: 'The thread, oldest first, with `author` on handler replies.',
    query: z.strictObject(pageQuery()),
    status: 200,
    response: page(AdminGrievanceReply),
    errors: [400, 404],
    access: readsTable,
  }),
);

export const adminCreateGrievanceReplyRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...grievanceRoute,
    name: 'admin-create-grievance-reply',
    method: 'POST',
    path: `${handlerPath}/{grievanceId}/replies`,
    auth: 'super_admin',
    audit: { action: 'grievance.reply.create', target: { params: ['grievanceId'] } },
    summary: 'Replies as the grievance team (authorRole handler); Anonymous on employee routes.',
    body: replyBody,
    idempotent: true,
    status: 201,
    response: AdminGrievanceReply,
    errors: [400, 404],
    access: writesAndPushesMentions,
  }),
);

export const adminListGrievanceStatusChangesRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...grievanceRoute,
    name: 'admin-list-grievance-status-changes',
    method: 'GET',
    path: `${handlerPath}/{grievanceId}/status-changes`,
    auth: 'super_admin',
    summary: 'The handling record, newest first, with `changedBy`.',
    status: 200,
    response: z.array(AdminGrievanceStatusChange),
    errors: [404],
    access: readsTable,
  }),
);

// ---------------------------------------------------------------- handling (beyond the specification)
const Deadline = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      dueAt: isoDateTime(),
      metAt: nullableIso(),
      state: z.enum(['met', 'missed', 'pending']),
    }),
    { id: 'GrievanceDeadline' },
  ),
);

export const GrievanceDeadlines = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      grievance: z.object({
        id: z.string(),
        subject: z.string(),
        category: GrievanceCategory,
        status: GrievanceStatus,
        createdAt: isoDateTime(),
      }),
      next: z.enum(['acknowledgement', 'feedback']),
      dueAt: isoDateTime(),
      acknowledgement: Deadline,
      feedback: Deadline,
    }),
    { id: 'GrievanceDeadlines' },
  ),
);

export const adminListGrievanceDeadlinesRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...grievanceRoute,
    name: 'admin-list-grievance-deadlines',
    method: 'GET',
    path: `${handlerPath}/deadlines`,
    auth: 'super_admin',
    summary:
      'Grievances with an unmet deadline, the soonest (or longest overdue) first: the acknowledgement (raised + GRIEVANCE_ACK_DAYS) and feedback (acknowledged + GRIEVANCE_FEEDBACK_DAYS) deadlines, each met, missed or pending.',
    query: z.strictObject(pageQuery()),
    status: 200,
    response: page(GrievanceDeadlines),
    errors: [400],
    access: readsTable,
  }),
);

const day = /* @__PURE__ */ declared(() =>
  z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)')),
);
const Durations = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      count: z.number().check(z.int()),
      medianHours: z.nullable(z.number()),
      p90Hours: z.nullable(z.number()),
    }),
    {
      id: 'GrievanceDurations',
      description:
        'Times from raising, of grievances raised in the period. Quantiles are the upper bound (hours) of the histogram bin holding them: exact to within the bin (bins double up to a day, then grow by days, weeks and months); null when nothing was counted or beyond a year.',
    },
  ),
);
/** A count per value of a closed list (every value present). */
const countsBy = <K extends string>(keys: readonly K[]) =>
  z.object(Object.fromEntries(keys.map((k) => [k, z.number().check(z.int())])) as Record<K, z.ZodMiniNumber>);
const Outcomes = /* @__PURE__ */ declared(() =>
  z.object({ met: z.number().check(z.int()), missed: z.number().check(z.int()) }),
);

export const GrievanceStats = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      from: z.string(),
      to: z.string(),
      raised: z.number().check(z.int()),
      byStatus: countsBy(STATUSES),
      byCategory: countsBy(CATEGORIES),
      timeToAcknowledgement: Durations,
      timeToResolution: Durations,
      deadlines: z.object({ acknowledgement: Outcomes, feedback: Outcomes }),
      erasures: z.object({
        erased: z.number().check(z.int()),
        runs: z.array(z.object({ at: isoDateTime(), erased: z.number().check(z.int()) })),
      }),
    }),
    { id: 'GrievanceStats' },
  ),
);

export const adminGetGrievanceStatsRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...grievanceRoute,
    name: 'admin-get-grievance-stats',
    method: 'GET',
    path: `${handlerPath}/stats`,
    auth: 'super_admin',
    summary:
      "Handler statistics for the UTC days from..to (at most 366): grievances raised, by status now and by category, times to acknowledgement and resolution, deadlines falling due met and missed, and the retention sweep's erasures.",
    query: z.strictObject({ from: day, to: day }),
    status: 200,
    response: GrievanceStats,
    errors: [400],
    access: readsTable,
  }),
);

export const adminExportGrievanceRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    ...grievanceRoute,
    name: 'admin-export-grievance',
    method: 'GET',
    path: `${handlerPath}/{grievanceId}/export`,
    auth: 'super_admin',
    summary:
      'The record of one grievance (fields, thread, handling record with reasons, deadlines) as JSON or a PDF document, by Accept (application/json, application/pdf; else 406). Handlers are named; the raiser and other employees never are.',
    status: 200,
    raw: true,
    errors: [404, 406],
    access: readsTable,
  }),
);

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
  adminListGrievanceDeadlinesRoute,
  adminGetGrievanceStatsRoute,
  adminExportGrievanceRoute,
];
