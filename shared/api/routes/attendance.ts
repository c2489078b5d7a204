import { DocumentChange } from '../../documents/entities.ts';
import * as hr from '../../hr/entities.ts';
import { calendarDate } from '../../util/time.ts';
import * as z from '../../util/zod.ts';
import { API_PREFIX, declared, defineRoute } from '../route-def.ts';
import { nullableIso } from '../schemas/common.ts';

export const AttendanceRecord = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      employeeId: z.string(),
      employeeName: z.string(),
      date: z.described(z.string(), 'YYYY-MM-DD in the company timezone'),
      checkIn: nullableIso(),
      checkOut: nullableIso(),
      status: z.enum(['NOT_CHECKED_IN', 'PRESENT', 'CHECKED_OUT']),
    }),
    { id: 'AttendanceRecord' },
  ),
);

export const TodayAttendance = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      me: AttendanceRecord,
      canViewAll: z.boolean(),
      currentlyPresentCount: z.number().check(z.int()),
      employees: z.array(AttendanceRecord),
    }),
    { id: 'TodayAttendance' },
  ),
);

export const AttendanceEmployee = /* @__PURE__ */ declared(() =>
  z.withMeta(z.object({ id: z.string(), name: z.string() }), { id: 'AttendanceEmployee' }),
);

const A = `${API_PREFIX}/attendance`;

export const getAttendanceTodayRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'get-attendance-today',
    area: 'attendance',
    method: 'GET',
    path: `${A}/today`,
    auth: 'session',
    summary:
      "The caller's record of today, how many are present, and (super admins and reporting managers) every active person's record. Sent gzip-compressed when large and the client accepts it (Accept-Encoding: gzip); uncompressed when it fits the 6 MB response limit, else 406.",
    status: 200,
    response: TodayAttendance,
    errors: [406],
    access: { bucket: [{ prefix: 'documents/', actions: ['read'] }] },
  }),
);

export const checkInRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'check-in',
    area: 'attendance',
    method: 'POST',
    path: `${A}/check-in`,
    auth: 'session',
    summary: 'Checks the caller in for today (company timezone); 409 when already checked in today.',
    status: 201,
    response: AttendanceRecord,
    errors: [409],
    access: { table: 'write', writes: [hr.AttendanceRecord, hr.PresentCounter, DocumentChange] },
  }),
);

export const checkOutRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'check-out',
    area: 'attendance',
    method: 'POST',
    path: `${A}/check-out`,
    auth: 'session',
    summary: 'Checks the caller out for today; 409 before checking in or after checking out.',
    status: 201,
    response: AttendanceRecord,
    errors: [409],
    access: { table: 'write', writes: [hr.AttendanceRecord, hr.PresentCounter, DocumentChange] },
  }),
);

export const listAttendanceHistoryRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-attendance-history',
    area: 'attendance',
    method: 'GET',
    path: `${A}/history`,
    auth: 'session',
    summary:
      "A person's records between two days (inclusive), newest first: your own, or anybody's for super admins and reporting managers.",
    query: z.strictObject({
      from: z.optional(calendarDate()),
      to: z.optional(calendarDate()),
      employeeId: z.optional(z.string().check(z.minLength(1)).check(z.maxLength(200))),
    }),
    status: 200,
    response: z.array(AttendanceRecord),
    errors: [400, 403, 404],
  }),
);

export const listAttendanceEmployeesRoute = /* @__PURE__ */ declared(() =>
  defineRoute({
    name: 'list-attendance-employees',
    area: 'attendance',
    method: 'GET',
    path: `${A}/employees`,
    auth: 'session',
    summary:
      'Every active person (super admins and reporting managers only). Sent gzip-compressed when large and the client accepts it (Accept-Encoding: gzip); uncompressed when it fits the 6 MB response limit, else 406.',
    status: 200,
    response: z.array(AttendanceEmployee),
    errors: [403, 406],
    access: { bucket: [{ prefix: 'documents/', actions: ['read'] }] },
  }),
);

export const attendanceRoutes = [
  getAttendanceTodayRoute,
  checkInRoute,
  checkOutRoute,
  listAttendanceHistoryRoute,
  listAttendanceEmployeesRoute,
];
