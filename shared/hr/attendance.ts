import { isConditionFailure, transact } from '../db/table.ts';
import { conflict, forbidden, notFound } from '../errors.ts';
import { activeByName, roster } from '../people/roster.ts';
import { getUser, type UserItem } from '../people/users.ts';
import { companyDate } from '../util/time.ts';
import { checkInChange, checkOutChange, type DayRecord, dayRecords } from './attendance-day.ts';
import { type AttendanceItem, AttendanceRecord, PresentCounter } from './entities.ts';
import { canViewAll } from './viewers.ts';

/**
 * Attendance: one record per person per company day, created by
 * the check-in (a conditional put, so two check-ins at once make one record and one 409) and closed by
 * the check-out (conditional on being open). `currentlyPresentCount` is the day's `present` counter,
 * moved in the same transaction as each check-in and check-out.
 */
type Status = 'NOT_CHECKED_IN' | 'PRESENT' | 'CHECKED_OUT';

export function toRecord(
  person: Pick<UserItem, 'id' | 'name'>,
  date: string,
  item: Pick<AttendanceItem, 'checkIn' | 'checkOut'> | DayRecord | undefined,
) {
  const status: Status = !item ? 'NOT_CHECKED_IN' : item.checkOut ? 'CHECKED_OUT' : 'PRESENT';
  return {
    employeeId: person.id,
    employeeName: person.name,
    date,
    checkIn: item?.checkIn ?? null,
    checkOut: item?.checkOut ?? null,
    status,
  };
}

/** Who checks in or out: the record needs their id, the answer their name. */
type Attendee = Pick<UserItem, 'id' | 'name'>;

export async function checkIn(person: Attendee, now = new Date()) {
  const date = companyDate(now);
  const item = AttendanceRecord.item({
    employeeId: person.id,
    date,
    checkIn: now.toISOString(),
    checkOut: null,
    actorId: person.id,
  });
  try {
    await transact([
      AttendanceRecord.create(item),
      PresentCounter.add({ date }, { present: 1 }),
      checkInChange(person.id, date, item.checkIn),
    ]);
  } catch (err) {
    if (isConditionFailure(err)) throw conflict('You have already checked in today.');
    throw err;
  }
  return toRecord(person, date, item);
}

export async function checkOut(person: Attendee, now = new Date()) {
  const date = companyDate(now);
  const at = now.toISOString();
  // Read first: the day's document takes the whole record (its check-in never changes once made).
  const open = await AttendanceRecord.get({ employeeId: person.id, date }, { consistent: true });
  if (!open) throw conflict('Check in before checking out.');
  if (open.checkOut) throw conflict('You have already checked out today.');
  try {
    await transact([
      AttendanceRecord.update(
        { employeeId: person.id, date },
        {
          UpdateExpression: 'SET checkOut = :at, actorId = :me',
          ConditionExpression: 'attribute_exists(pk) AND checkOut = :null',
          ExpressionAttributeValues: { ':at': at, ':me': person.id, ':null': null },
        },
      ),
      PresentCounter.add({ date }, { present: -1 }),
      checkOutChange(person.id, date, open.checkIn, at),
    ]);
  } catch (err) {
    // Checked out by a concurrent request meanwhile.
    if (isConditionFailure(err)) throw conflict('You have already checked out today.');
    throw err;
  }
  return toRecord(person, date, { ...open, checkOut: at });
}

export async function today(viewer: UserItem, now = new Date()) {
  const date = companyDate(now);
  const viewAll = canViewAll(viewer);
  const [mine, counter, employees] = await Promise.all([
    AttendanceRecord.get({ employeeId: viewer.id, date }, { consistent: true }),
    PresentCounter.get({ date }, { consistent: true }),
    viewAll ? everybodyOn(date) : Promise.resolve([]),
  ]);
  return {
    me: toRecord(viewer, date, mine),
    canViewAll: viewAll,
    currentlyPresentCount: Math.max(0, counter?.present ?? 0),
    employees,
  };
}

/**
 * Every active person's record of a day (NOT_CHECKED_IN where there is none): the roster and the day's
 * attendance documents with their pending changes (roster.ts, attendance-day.ts).
 */
async function everybodyOn(date: string) {
  const [people, records] = await Promise.all([roster(), dayRecords(date)]);
  return activeByName(people).map((p) => toRecord(p, date, records.get(p.id)));
}

/**
 * A person's records between two company days (inclusive), newest first: one Query of their
 * partition. Somebody else's history needs canViewAll (403), and then an unknown person is a 404.
 */
export async function history(viewer: UserItem, query: { from?: string; to?: string; employeeId?: string }) {
  let person: UserItem = viewer;
  if (query.employeeId && query.employeeId !== viewer.id) {
    if (!canViewAll(viewer))
      throw forbidden("Only super admins and reporting managers can see somebody else's attendance.");
    const found = await getUser(query.employeeId);
    if (!found) throw notFound('No such person.');
    person = found;
  }
  if (query.from && query.to && query.from > query.to) return [];
  const items = await AttendanceRecord.queryAll({
    key: { employeeId: person.id },
    range: { from: { date: query.from ?? '0000-00-00' }, to: { date: query.to ?? '9999-12-31' } },
    forward: false,
  });
  return items.map((item) => toRecord(person, item.date, item));
}

/** `/attendance/employees`: every active person, for those who can view everybody. */
export async function employees(viewer: UserItem) {
  if (!canViewAll(viewer)) throw forbidden('Only super admins and reporting managers can list employees.');
  return activeByName(await roster()).map((p) => ({ id: p.id, name: p.name }));
}
