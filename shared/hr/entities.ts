import { type EntityItem, entity, keyOnly, shape } from '../db/entity.ts';

/** The HR area's entities (docs/data-model.md, HR): each item's key and index attributes, declared once. */

export type LeaveStatus = 'PENDING' | 'APPROVED' | 'DISAPPROVED';

/**
 * A leave request (time-sortable id, so id order is creation order): listed for its requester (gsi1),
 * its selected manager (gsi2) and everybody (gsi3), newest first, and on the two pending indexes (gsi4
 * by manager, gsi5 all; sparse) only while it waits for a decision, so the pending counts read only
 * what they count.
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
