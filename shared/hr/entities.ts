import { entity } from '../db/entity.ts';
import {
  attendanceDayIndex,
  attendanceKey,
  leaveAllIndex,
  leaveByApproverIndex,
  leaveByRequesterIndex,
  leaveRequestKey,
  leaveSeenKey,
  pendingLeaveAllIndex,
  pendingLeaveByApproverIndex,
  presentCounterKey,
} from '../db/keys.ts';
import type { AttendanceItem } from './attendance.ts';
import type { LeaveItem } from './leave.ts';

/** The HR area's entities (docs/data-model.md, HR): each item's key and index attributes, declared once. */

const pending = (r: Pick<LeaveItem, 'status'>) => r.status === 'PENDING';

/**
 * A leave request: listed for its requester, its approver and everybody (newest first), and on the two
 * pending indexes (sparse) only while it waits for a decision, so the pending counts read only what they count.
 */
export const LeaveRequest = entity<LeaveItem, [requestId: string]>({
  name: 'LeaveRequest',
  key: leaveRequestKey,
  keyOf: (r) => [r.id],
  indexes: [
    {
      index: leaveByRequesterIndex.index,
      pk: (r) => leaveByRequesterIndex.pk(r.employeeId),
      sk: (r) => leaveByRequesterIndex.sk(r.id),
    },
    {
      index: leaveByApproverIndex.index,
      pk: (r) => leaveByApproverIndex.pk(r.selectedManagerId),
      sk: (r) => leaveByApproverIndex.sk(r.id),
    },
    { index: leaveAllIndex.index, pk: () => leaveAllIndex.pk, sk: (r) => leaveAllIndex.sk(r.id) },
    {
      index: pendingLeaveByApproverIndex.index,
      pk: (r) => (pending(r) ? pendingLeaveByApproverIndex.pk(r.selectedManagerId) : undefined),
      sk: (r) => (pending(r) ? pendingLeaveByApproverIndex.sk(r.id) : undefined),
    },
    {
      index: pendingLeaveAllIndex.index,
      pk: (r) => (pending(r) ? pendingLeaveAllIndex.pk : undefined),
      sk: (r) => (pending(r) ? pendingLeaveAllIndex.sk(r.id) : undefined),
    },
  ],
});

/** Up to when a person has seen the leave requests waiting for them (their pending count starts after it). */
export interface LeaveSeenItem {
  pk: string;
  sk: string;
  entity: 'LeaveSeen';
  userId: string;
  seenUpTo: string;
  actorId: string;
}
export const LeaveSeen = entity<LeaveSeenItem, [userId: string]>({
  name: 'LeaveSeen',
  key: leaveSeenKey,
  keyOf: (s) => [s.userId],
});

/** A person's attendance on one company day, listed under the day (gsi1) for those who view everybody's. */
export const AttendanceRecord = entity<AttendanceItem, [userId: string, date: string]>({
  name: 'AttendanceRecord',
  key: attendanceKey,
  keyOf: (a) => [a.employeeId, a.date],
  indexes: [
    {
      index: attendanceDayIndex.index,
      pk: (a) => attendanceDayIndex.pk(a.date),
      sk: (a) => attendanceDayIndex.sk(a.employeeId),
    },
  ],
});

/** How many people are present on a company day (`present`), moved with ADD by every check-in and check-out. */
export interface PresentCounterItem {
  pk: string;
  sk: string;
  entity: 'PresentCounter';
  present: number;
}
export const PresentCounter = entity<PresentCounterItem, [date: string]>({
  name: 'PresentCounter',
  key: presentCounterKey,
});
