import { type EntityItem, entity, keyOnly, shape } from '../db/entity.ts';

/** The HR area's entities (docs/data-model.md, HR): each item's key and index attributes, declared once. */

export type LeaveStatus = 'PENDING' | 'APPROVED' | 'DISAPPROVED';

/**
 * How far ahead of its creation a leave may end and still be found by a time window on the id indexes
 * alone (leave.ts): a request whose `toDate` is more than this after its creation is also on the
 * sparse "ahead" indexes (gsi6 by requester, gsi7 everybody's), sorted by `toDate`.
 */
export const LEAVE_AHEAD_DAYS = 31;
const DAY_MS = 86_400_000;
/** `toDate` as a number (20261231): the ahead indexes' numeric sort key. */
export const dayNumber = (day: string) => Number(day.replaceAll('-', ''));
const endsFarAhead = (r: { toDate: string; createdAt: string }) =>
  Date.parse(`${r.toDate}T00:00:00Z`) - Date.parse(r.createdAt) > (LEAVE_AHEAD_DAYS - 1) * DAY_MS;

/**
 * A leave request (time-sortable id, so id order is creation order): listed for its requester (gsi1),
 * its selected manager (gsi2) and everybody (gsi3), newest first, and on the two pending indexes (gsi4
 * by manager, gsi5 all; sparse) only while it waits for a decision, so the pending counts read only
 * what they count. One that ends more than LEAVE_AHEAD_DAYS after it was made is also on the ahead
 * indexes (gsi6, gsi7; sparse, by `toDate`), so a window on `toDate` never reads older requests.
 */
export const LeaveRequest = entity({
  name: 'LeaveRequest',
  fields: shape<{
    id: string;
    employeeId: string;
    leaveType: string;
    fromDate: string;
    toDate: string;
    reason: string;
    selectedManagerId: string;
    status: LeaveStatus;
    processedById: string | null;
    processedAt: string | null;
    processComment: string | null;
    createdAt: string;
    actorId: string;
  }>(),
  key: { pk: ['LEAVE', 'id'], sk: ['LEAVE'] },
  indexes: {
    byRequester: { index: 'gsi1', pk: ['LEAVE_BY', 'employeeId'], sk: ['id'] },
    byApprover: { index: 'gsi2', pk: ['LEAVE_TO', 'selectedManagerId'], sk: ['id'] },
    all: { index: 'gsi3', pk: ['LEAVE_ALL'], sk: ['id'] },
    pendingByApprover: {
      index: 'gsi4',
      pk: ['LEAVE_PENDING', 'selectedManagerId'],
      sk: ['id'],
      when: (r) => r.status === 'PENDING',
    },
    pendingAll: { index: 'gsi5', pk: ['LEAVE_PENDING_ALL'], sk: ['id'], when: (r) => r.status === 'PENDING' },
    aheadByRequester: {
      index: 'gsi6',
      pk: ['LEAVE_AHEAD_BY', 'employeeId'],
      sk: [(r) => dayNumber(r.toDate)],
      when: endsFarAhead,
    },
    aheadAll: { index: 'gsi7', pk: ['LEAVE_AHEAD_ALL'], sk: [(r) => dayNumber(r.toDate)], when: endsFarAhead },
  },
});
export type LeaveItem = EntityItem<typeof LeaveRequest>;

/** Up to which request id a person has seen the requests routed to them (`POST /leave/requests/seen`). */
export const LeaveSeen = entity({
  name: 'LeaveSeen',
  fields: shape<{ userId: string; seenUpTo: string; actorId: string }>(),
  key: { pk: ['USER', 'userId'], sk: ['LEAVE_SEEN'] },
});

/** A person's attendance on one company day, listed under the day (gsi1) for those who view everybody's. */
export const AttendanceRecord = entity({
  name: 'AttendanceRecord',
  fields: shape<{
    employeeId: string;
    date: string;
    checkIn: string;
    checkOut: string | null;
    actorId: string;
  }>(),
  key: { pk: ['ATTENDANCE', 'employeeId'], sk: ['DAY', 'date'] },
  indexes: { byDay: { index: 'gsi1', pk: ['ATTENDANCE_DAY', 'date'], sk: ['employeeId'] } },
});
export type AttendanceItem = EntityItem<typeof AttendanceRecord>;

/** How many people are present on a company day (`present`), moved with ADD by every check-in and check-out. */
export const PresentCounter = entity({
  name: 'PresentCounter',
  fields: shape<{ present: number }>(),
  keyOnly: keyOnly<{ date: string }>('date'),
  key: { pk: ['ATTENDANCE_DAY', 'date'], sk: ['COUNT'] },
  inPlace: true,
});
