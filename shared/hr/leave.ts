import { newSortableId } from '../db/ids.ts';
import { isConditionFailure, transact, write } from '../db/table.ts';
import { conflict, invalid, notFound } from '../errors.ts';
import { activeByName, type RosterPerson, reportCounts, roster } from '../people/roster.ts';
import { getUser, getUsers, type UserItem } from '../people/users.ts';
import { type LeaveItem, LeaveRequest, LeaveSeen, type LeaveStatus } from './entities.ts';
import { isReportingManager } from './viewers.ts';

/**
 * Leave requests. A request is routed to the manager its requester
 * selects (an active super admin or an active person with reports, not themselves); that manager or
 * any super admin decides it once (a conditional update on PENDING, so two deciders leave one
 * decision). Lists are Queries on the requester's, the manager's or everybody's index, newest first.
 *
 * `pendingCount`: the pending requests routed to the viewer (all pending ones for a super admin) newer
 * than the viewer's seen mark, counted on the sparse pending index from the mark on, so it reads only
 * the requests it counts.
 */
const isAdmin = (u: Pick<UserItem, 'role'>) => u.role === 'super_admin';
/** Who decides leave: active super admins and active people with reports, never the person asking. */
const canApproveFor = (candidate: UserItem, requesterId: string) =>
  candidate.id !== requesterId &&
  candidate.status === 'active' &&
  (isAdmin(candidate) || isReportingManager(candidate));

const brief = (u: Pick<UserItem, 'id' | 'name' | 'image'>) => ({ id: u.id, name: u.name, image: u.image ?? null });

/** A seen mark covers every request created up to this moment (ids start with their creation time). */
const seenMark = (at: Date) => `${newSortableId(at).slice(0, 10)}~`;

export async function pendingCount(viewer: UserItem): Promise<number> {
  const seen = await LeaveSeen.get({ userId: viewer.id }, { consistent: true });
  const pending = isAdmin(viewer)
    ? { index: 'pendingAll' as const, key: {} }
    : { index: 'pendingByApprover' as const, key: { selectedManagerId: viewer.id } };
  return (await LeaveRequest.queryAll({ ...pending, ...(seen?.seenUpTo ? { skAfter: seen.seenUpTo } : {}) })).length;
}

export async function markSeen(viewer: UserItem, now = new Date()): Promise<void> {
  await write(LeaveSeen.put({ userId: viewer.id, seenUpTo: seenMark(now), actorId: viewer.id }));
}

/**
 * The caller's leave context. The approvers (and, for super admins and reporting managers, the
 * employees) come from the roster document (shared/people/roster.ts): report counts are counted on
 * it, so its DynamoDB reads are the roster's pending changes, whatever the company's size.
 */
export async function leaveContext(viewer: UserItem) {
  const [everyone, manager, pending] = await Promise.all([
    roster(),
    viewer.managerId ? getUser(viewer.managerId) : Promise.resolve(undefined),
    pendingCount(viewer),
  ]);
  const names = new Map(everyone.map((p) => [p.id, p.name]));
  const reports = reportCounts(everyone);
  const approves = (p: RosterPerson) =>
    p.id !== viewer.id && (p.role === 'super_admin' || (reports.get(p.id) ?? 0) >= 1);
  // Filtered before they are sorted: a member's answer sorts the approvers only, not the company.
  const employees = isAdmin(viewer)
    ? activeByName(everyone)
    : isReportingManager(viewer)
      ? activeByName(everyone.filter((p) => p.managerId === viewer.id))
      : [];
  return {
    isAdmin: isAdmin(viewer),
    isReportingManager: isReportingManager(viewer),
    pendingCount: pending,
    currentManager: manager ? brief(manager) : null,
    managers: activeByName(everyone.filter(approves)).map(brief),
    employees: employees.map((e) => ({
      id: e.id,
      name: e.name,
      managerId: e.managerId ?? null,
      managerName: e.managerId ? (names.get(e.managerId) ?? null) : null,
    })),
  };
}

export interface NewLeaveRequest {
  leaveType: string;
  fromDate: string;
  toDate: string;
  reason: string;
  selectedManagerId: string;
}

export async function createLeaveRequest(
  requester: UserItem,
  input: NewLeaveRequest,
  now = new Date(),
): Promise<LeaveItem> {
  if (input.toDate < input.fromDate) throw invalid(['toDate: must not be before fromDate']);
  const manager = await getUser(input.selectedManagerId, true);
  if (!manager || !canApproveFor(manager, requester.id))
    throw invalid(['selectedManagerId: must be one of the managers offered in GET /leave/context']);
  const id = newSortableId(now);
  const item = LeaveRequest.item({
    id,
    employeeId: requester.id,
    leaveType: input.leaveType.trim(),
    fromDate: input.fromDate,
    toDate: input.toDate,
    reason: input.reason,
    selectedManagerId: manager.id,
    status: 'PENDING',
    processedById: null,
    processedAt: null,
    processComment: null,
    createdAt: now.toISOString(),
    actorId: requester.id,
  });
  await write(LeaveRequest.create(item));
  return item;
}

/** Approves or disapproves: the selected manager or any super admin (404 for anybody else); once (409 after). */
export async function processLeaveRequest(
  viewer: UserItem,
  requestId: string,
  decision: { status: 'APPROVED' | 'DISAPPROVED'; comment?: string },
  now = new Date(),
): Promise<LeaveItem> {
  const request = await LeaveRequest.get({ id: requestId }, { consistent: true });
  if (!request || !(request.selectedManagerId === viewer.id || isAdmin(viewer)))
    throw notFound('No such leave request.');
  const alreadyDecided = (status: LeaveStatus) =>
    conflict(`This request was already ${status === 'APPROVED' ? 'approved' : 'disapproved'}.`);
  if (request.status !== 'PENDING') throw alreadyDecided(request.status);
  const comment = decision.comment?.trim() ? decision.comment : null;
  const fields = {
    status: decision.status,
    processedById: viewer.id,
    processedAt: now.toISOString(),
    processComment: comment,
    actorId: viewer.id,
  };
  // The decided request leaves the pending indexes (sparse): `change` removes their attributes.
  const decided = { ...request, ...fields };
  try {
    await write(
      LeaveRequest.change(request, decided, {
        ConditionExpression: '#pending = :pending',
        ExpressionAttributeNames: { '#pending': 'status' },
        ExpressionAttributeValues: { ':pending': 'PENDING' },
      }),
      { returnValues: 'NONE' },
    );
    return LeaveRequest.item(decided);
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    const current = await LeaveRequest.get({ id: requestId }, { consistent: true });
    if (!current) throw notFound('No such leave request.');
    throw alreadyDecided(current.status);
  }
}

/** The requester deletes their own pending request; anything else answers 404. */
export async function deleteLeaveRequest(viewer: UserItem, requestId: string): Promise<void> {
  try {
    await transact([
      LeaveRequest.remove(
        { id: requestId },
        {
          ConditionExpression: 'employeeId = :me AND #status = :pending',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':me': viewer.id, ':pending': 'PENDING' },
        },
      ),
    ]);
  } catch (err) {
    if (isConditionFailure(err)) throw notFound('No such pending leave request of yours.');
    throw err;
  }
}

export interface LeaveFilters {
  scope: 'requests' | 'history';
  employeeId?: string;
  leaveType?: string;
  status?: LeaveStatus;
  from?: string;
  to?: string;
}

/** Which index a scope reads: your own requests; those routed to you; everybody's (or one person's) for a super admin. */
function scopeQuery(
  viewer: UserItem,
  f: LeaveFilters,
): { index: 'byRequester' | 'all' | 'byApprover'; key: Partial<LeaveItem> } | null {
  if (f.scope === 'requests') {
    if (f.employeeId && f.employeeId !== viewer.id) return null;
    return { index: 'byRequester', key: { employeeId: viewer.id } };
  }
  if (isAdmin(viewer)) {
    return f.employeeId ? { index: 'byRequester', key: { employeeId: f.employeeId } } : { index: 'all', key: {} };
  }
  return { index: 'byApprover', key: { selectedManagerId: viewer.id } };
}

export async function listLeaveRequests(viewer: UserItem, f: LeaveFilters): Promise<LeaveItem[]> {
  const scope = scopeQuery(viewer, f);
  if (!scope) return [];
  const clauses: { attribute: keyof LeaveItem; op: '=' | '>=' | '<='; value: string | undefined }[] = [
    { attribute: 'employeeId', op: '=', value: f.employeeId },
    { attribute: 'leaveType', op: '=', value: f.leaveType },
    { attribute: 'status', op: '=', value: f.status },
    // Overlap with [from, to]: the leave ends on or after `from` and starts on or before `to`.
    { attribute: 'toDate', op: '>=', value: f.from },
    { attribute: 'fromDate', op: '<=', value: f.to },
  ];
  const used = clauses.filter((c) => c.value !== undefined);
  const filter = used.length
    ? {
        FilterExpression: used.map((c, i) => `#f${i} ${c.op} :f${i}`).join(' AND '),
        ExpressionAttributeNames: Object.fromEntries(used.map((c, i) => [`#f${i}`, c.attribute])),
        ExpressionAttributeValues: Object.fromEntries(used.map((c, i) => [`:f${i}`, c.value])),
      }
    : undefined;
  return LeaveRequest.queryAll({ ...scope, forward: false, filter });
}

/** LeaveRequest answers; names read fresh. */
export async function toLeaveRequests(items: LeaveItem[]) {
  const people = await getUsers(items.flatMap((r) => [r.employeeId, r.selectedManagerId, r.processedById ?? '']));
  const nameOf = (id: string | null) => (id ? (people.get(id)?.name ?? '') : null);
  return items.map((r) => ({
    id: r.id,
    employeeId: r.employeeId,
    employeeName: nameOf(r.employeeId) ?? '',
    leaveType: r.leaveType,
    fromDate: r.fromDate,
    toDate: r.toDate,
    reason: r.reason,
    selectedManagerId: r.selectedManagerId,
    selectedManagerName: nameOf(r.selectedManagerId) ?? '',
    processedById: r.processedById ?? null,
    processedByName: r.processedById ? nameOf(r.processedById) : null,
    processedAt: r.processedAt ?? null,
    processComment: r.processComment ?? null,
    status: r.status,
    createdAt: r.createdAt,
  }));
}
