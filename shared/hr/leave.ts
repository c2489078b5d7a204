import { decodeCursor, encodeCursor } from '../db/cursor.ts';
import { newSortableId } from '../db/ids.ts';
import { isConditionFailure, queryBudgeted, queryCount, transact, write } from '../db/table.ts';
import { conflict, invalid, notFound } from '../errors.ts';
import { migrationDone } from '../migrations/done.ts';
import { WINDOW_INDEXES_MIGRATION } from '../migrations/window-indexes.ts';
import { activeByName, type RosterPerson, reportCounts, roster } from '../people/roster.ts';
import { getUser, getUsers, type UserItem } from '../people/users.ts';
import { companyDate } from '../util/time.ts';
import { dayNumber, LEAVE_AHEAD_DAYS, type LeaveItem, LeaveRequest, LeaveSeen, type LeaveStatus } from './entities.ts';
import { isReportingManager } from './viewers.ts';

/**
 * Leave requests. A request is routed to the manager its requester
 * selects (an active super admin or an active person with reports, not themselves); that manager or
 * any super admin decides it once (a conditional update on PENDING, so two deciders leave one
 * decision). Lists are Queries on the requester's, the manager's or everybody's index, newest first.
 *
 * `pendingCount`: the pending requests routed to the viewer (all pending ones for a super admin) newer
 * than the viewer's seen mark, counted on the sparse pending index from the mark on, so it reads only
 * the requests it counts (a COUNT query: none of them is sent back).
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
  return queryCount(LeaveRequest.queryOptions({ ...pending, ...(seen?.seenUpTo ? { skAfter: seen.seenUpTo } : {}) }));
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

/** At most this many requests an answer (decisions §4), and at most READ_BUDGET read for it. */
export const LEAVE_PAGE = 500;
const READ_BUDGET = 4 * LEAVE_PAGE;
/** Without `from`, the list covers requests whose `toDate` is at most this many days ago. */
export const LEAVE_HISTORY_DAYS = 366;
const DAY_MS = 86_400_000;

type IdIndex = 'byRequester' | 'all' | 'byApprover' | 'pendingByApprover' | 'pendingAll';
interface ScopeRead {
  /** The id-sorted index and partition the scope reads. */
  index: IdIndex;
  key: Partial<LeaveItem>;
  /** Its far-ahead requests: the requester's ahead index, or everybody's (filtered to the manager's). */
  ahead: { index: 'aheadByRequester'; key: { employeeId: string } } | { index: 'aheadAll'; key: object };
  /** Equality on the item a scope needs where its index does not give it (the manager's, on the ahead index). */
  match: Partial<Record<'employeeId' | 'selectedManagerId', string>>;
}

/**
 * Which index a scope reads: your own requests; those routed to you; everybody's (or one person's) for
 * a super admin. `status=PENDING` reads the sparse pending indexes, which hold only pending requests.
 */
function scopeQuery(viewer: UserItem, f: LeaveFilters): ScopeRead | null {
  const pending = f.status === 'PENDING';
  const own = (employeeId: string): ScopeRead => ({
    index: 'byRequester',
    key: { employeeId },
    ahead: { index: 'aheadByRequester', key: { employeeId } },
    match: {},
  });
  if (f.scope === 'requests') {
    if (f.employeeId && f.employeeId !== viewer.id) return null;
    return own(viewer.id);
  }
  if (isAdmin(viewer)) {
    if (f.employeeId) return own(f.employeeId);
    return { index: pending ? 'pendingAll' : 'all', key: {}, ahead: { index: 'aheadAll', key: {} }, match: {} };
  }
  return {
    index: pending ? 'pendingByApprover' : 'byApprover',
    key: { selectedManagerId: viewer.id },
    ahead: { index: 'aheadAll', key: {} },
    match: { selectedManagerId: viewer.id },
  };
}

type Clause = { attribute: string; op: '=' | '>=' | '<=' | '<'; value: string | undefined };
const filterOf = (clauses: Clause[]) => {
  const used = clauses.filter((c) => c.value !== undefined);
  return used.length
    ? {
        FilterExpression: used.map((c, i) => `#f${i} ${c.op} :f${i}`).join(' AND '),
        ExpressionAttributeNames: Object.fromEntries(used.map((c, i) => [`#f${i}`, c.attribute])),
        ExpressionAttributeValues: Object.fromEntries(used.map((c, i) => [`:f${i}`, c.value])),
      }
    : undefined;
};

/** The first `YYYY-MM-DD` the list covers without `from`: 366 days before today in the company's timezone. */
export function defaultLeaveFrom(now: Date): string {
  return new Date(Date.parse(`${companyDate(now)}T00:00:00Z`) - LEAVE_HISTORY_DAYS * DAY_MS).toISOString().slice(0, 10);
}

/** What the cursor seals: the window and where the answer stopped (in the id order, then among the ahead ones). */
type Position = { from: string } & (
  | { phase: 'ids'; key: Record<string, unknown> }
  | { phase: 'ahead'; beforeId: string | null }
);

/**
 * `GET /leave/requests`: newest first, the requests of the scope that overlap [`from`, `to`] (`from`
 * defaults to 366 days ago: decisions §4), at most LEAVE_PAGE an answer with a cursor to the rest.
 *
 * What a page reads, whatever the company's size or age (docs/data-model.md, HR): the scope's id index
 * (newest first) down to the requests made LEAVE_AHEAD_DAYS before `from`, filtered (`employeeId`,
 * `leaveType`, `status` and the window; `status=PENDING` by the pending index itself), at most
 * READ_BUDGET items an answer; then the scope's requests made earlier that end in the window, from the
 * sparse ahead index (only requests ending more than LEAVE_AHEAD_DAYS after they were made), sorted by
 * id. Until that index is backfilled (`0010-window-indexes`), those are read from the id index
 * below the bound (the older read: correct, not bounded).
 */
export async function listLeaveRequests(
  viewer: UserItem,
  f: LeaveFilters & { cursor?: string },
  now = new Date(),
): Promise<{ requests: LeaveItem[]; nextCursor: string | null }> {
  const scope = scopeQuery(viewer, f);
  if (!scope) return { requests: [], nextCursor: null };
  const sealScope = `leave|${viewer.id}|${f.scope}|${f.employeeId ?? ''}|${f.leaveType ?? ''}|${f.status ?? ''}|${f.from ?? ''}|${f.to ?? ''}`;
  const resumed = decodeCursor(sealScope, f.cursor) as Position | undefined;
  const from = resumed?.from ?? f.from ?? defaultLeaveFrom(now);
  if (f.to !== undefined && f.to < from) return { requests: [], nextCursor: null };
  // Requests made from here on are read by id; earlier ones can end in the window only if they end far ahead.
  const idBound = newSortableId(new Date(Date.parse(`${from}T00:00:00Z`) - LEAVE_AHEAD_DAYS * DAY_MS)).slice(0, 10);
  const clauses: Clause[] = [
    { attribute: 'employeeId', op: '=', value: f.employeeId ?? scope.match.employeeId },
    { attribute: 'selectedManagerId', op: '=', value: scope.match.selectedManagerId },
    { attribute: 'leaveType', op: '=', value: f.leaveType },
    { attribute: 'status', op: '=', value: f.status },
    // Overlap with [from, to]: the leave ends on or after `from` and starts on or before `to`.
    { attribute: 'toDate', op: '>=', value: from },
    { attribute: 'fromDate', op: '<=', value: f.to },
  ];
  const seal = (p: Position) => encodeCursor(sealScope, p as unknown as Record<string, unknown>);

  const requests: LeaveItem[] = [];
  let beforeId: string | null = null;
  if (!resumed || resumed.phase === 'ids') {
    const read = await queryBudgeted({
      ...LeaveRequest.queryOptions({
        index: scope.index,
        key: scope.key,
        skAfter: idBound,
        forward: false,
        filter: filterOf(clauses),
      }),
      want: LEAVE_PAGE,
      budget: READ_BUDGET,
      start: resumed?.key,
    });
    requests.push(...read.items.filter(LeaveRequest.is));
    if (read.next) return { requests, nextCursor: seal({ from, phase: 'ids', key: read.next }) };
  } else beforeId = resumed.beforeId;

  // The scope's requests made before the bound that still end in the window: older than every one above.
  const ahead = (await aheadOf(scope, from, idBound, clauses))
    .filter((r) => beforeId === null || r.id < beforeId)
    .sort((a, b) => (a.id < b.id ? 1 : -1));
  const room = LEAVE_PAGE - requests.length;
  requests.push(...ahead.slice(0, room));
  const more = ahead.length > room;
  return {
    requests,
    nextCursor: more ? seal({ from, phase: 'ahead', beforeId: requests[requests.length - 1].id }) : null,
  };
}

async function aheadOf(scope: ScopeRead, from: string, idBound: string, clauses: Clause[]): Promise<LeaveItem[]> {
  const filter = filterOf([...clauses, { attribute: 'id', op: '<', value: idBound }]);
  if (await migrationDone(WINDOW_INDEXES_MIGRATION))
    return LeaveRequest.queryAll({ ...scope.ahead, skAfter: dayNumber(from) - 1, filter });
  // Before the backfill: the scope's id index below the bound, every request there read.
  return LeaveRequest.queryAll({ index: scope.index, key: scope.key, skBefore: idBound, filter });
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
