import * as hr from '../../hr/entities.ts';
import { calendarDate } from '../../util/time.ts';
import * as z from '../../util/zod.ts';
import { nextPageCursorParam, nextPageHeader } from '../query.ts';
import { API_PREFIX, declared, defineRoute } from '../route-def.ts';
import { isoDateTime, Manager, nonBlank, nullableIso } from '../schemas/common.ts';

const LeaveStatus = /* @__PURE__ */ declared(() => z.enum(['PENDING', 'APPROVED', 'DISAPPROVED']));

export const LeaveRequest = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      id: z.string(),
      employeeId: z.string(),
      employeeName: z.string(),
      leaveType: z.string(),
      fromDate: z.string(),
      toDate: z.string(),
      reason: z.string(),
      selectedManagerId: z.string(),
      selectedManagerName: z.string(),
      processedById: z.nullable(z.string()),
      processedByName: z.nullable(z.string()),
      processedAt: nullableIso(),
      processComment: z.nullable(z.string()),
      status: LeaveStatus,
      createdAt: isoDateTime(),
    }),
    { id: 'LeaveRequest' },
  ),
);

export const LeaveContext = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      isAdmin: z.boolean(),
      isReportingManager: z.boolean(),
      pendingCount: z.number().check(z.int()),
      currentManager: z.nullable(Manager),
      managers: z.array(Manager),
      employees: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          managerId: z.nullable(z.string()),
          managerName: z.nullable(z.string()),
        }),
      ),
    }),
    { id: 'LeaveContext' },
  ),
);

const L = `${API_PREFIX}/leave`;

export const getLeaveContextRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-leave-context',
    area: 'leave',
    method: 'GET',
    path: `${L}/context`,
    auth: 'session',
    summary:
      'What the leave screens need: roles, unseen pending requests, the managers a request may go to, the employees one may filter by. Sent gzip-compressed when large and the client accepts it (Accept-Encoding: gzip); uncompressed when it fits the 6 MB response limit, else 406.',
    status: 200,
    response: LeaveContext,
    errors: [406],
    access: { bucket: [{ prefix: 'documents/', actions: ['read'] }] },
  }),
);

export const listLeaveRequestsRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-leave-requests',
    area: 'leave',
    method: 'GET',
    path: `${L}/requests`,
    auth: 'session',
    summary:
      'scope=requests (default): the caller\'s own requests; scope=history: those routed to the caller (everybody\'s for a super admin). Newest first. Without `from`, the requests whose `toDate` is at most 366 days ago (older ones need `from`). At most 500 requests an answer: when more match, the answer carries `Link: <…cursor=…>; rel="next"` for the rest.',
    query: z.strictObject({
      scope: z._default(z.optional(z.enum(['requests', 'history'])), 'requests'),
      employeeId: z.optional(z.string().check(z.minLength(1)).check(z.maxLength(200))),
      leaveType: z.optional(z.string().check(z.maxLength(80))),
      status: z.optional(LeaveStatus),
      from: z.described(
        z.optional(calendarDate()),
        "keeps requests that end on or after this day; default: 366 days before today (company's timezone)",
      ),
      to: z.described(z.optional(calendarDate()), 'keeps requests that start on or before this day'),
      cursor: nextPageCursorParam(),
    }),
    status: 200,
    response: z.array(LeaveRequest),
    responseHeaders: [nextPageHeader],
    errors: [400],
  }),
);

export const createLeaveRequestRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'create-leave-request',
    area: 'leave',
    method: 'POST',
    path: `${L}/requests`,
    auth: 'session',
    summary: 'Asks for leave, routed to a manager from LeaveContext.managers.',
    body: z.strictObject({
      leaveType: nonBlank(1, 80),
      fromDate: calendarDate(),
      toDate: calendarDate(),
      reason: nonBlank(1, 500),
      selectedManagerId: z.string().check(z.minLength(1)).check(z.maxLength(200)),
    }),
    idempotent: true,
    status: 201,
    response: LeaveRequest,
    errors: [400],
    access: { table: 'write', writes: [hr.LeaveRequest] },
  }),
);

export const processLeaveRequestRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'process-leave-request',
    area: 'leave',
    method: 'PATCH',
    path: `${L}/requests/{requestId}/process`,
    auth: 'session',
    summary: 'Approves or disapproves a pending request: its selected manager or any super admin.',
    body: z.strictObject({
      status: z.enum(['APPROVED', 'DISAPPROVED']),
      comment: z.optional(z.string().check(z.maxLength(500, 'must be at most 500 characters'))),
    }),
    status: 200,
    response: LeaveRequest,
    errors: [400, 404, 409],
    access: { table: 'write', writes: [hr.LeaveRequest] },
  }),
);

export const deleteLeaveRequestRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'delete-leave-request',
    area: 'leave',
    method: 'DELETE',
    path: `${L}/requests/{requestId}`,
    auth: 'session',
    summary: 'Withdraws your own pending request. Answers 200 with no body.',
    status: 200,
    errors: [404],
    access: { table: 'write', writes: [hr.LeaveRequest] },
  }),
);

export const markLeaveRequestsSeenRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'mark-leave-requests-seen',
    area: 'leave',
    method: 'POST',
    path: `${L}/requests/seen`,
    auth: 'session',
    summary: 'Marks the requests routed to the caller as seen (pendingCount drops to 0). Answers 200 with no body.',
    status: 200,
    access: { table: 'write', writes: [hr.LeaveSeen] },
  }),
);

export const leaveRoutes = [
  getLeaveContextRoute,
  listLeaveRequestsRoute,
  createLeaveRequestRoute,
  processLeaveRequestRoute,
  deleteLeaveRequestRoute,
  markLeaveRequestsSeenRoute,
];
