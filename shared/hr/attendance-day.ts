import type { TransactItem } from '../db/table.ts';
import { listChange, type Rows } from '../documents/changes.ts';
import { foldList, type ListSpec, readList } from '../documents/whole-list.ts';
import { AttendanceRecord } from './entities.ts';

/**
 * A company day's attendance as a whole-list document (shared/documents/whole-list.ts): every record
 * of the day by person, `[checkIn, checkOut]`, behind today's `employees` of `GET /attendance/today`.
 * Check-in and check-out write the change in their own transaction (rev 1, then 2: a record only ever
 * moves forward), and the stream consumer folds them into `documents/attendance-<date>.json.gz`.
 */
export const attendanceDoc = (date: string) => `attendance-${date}`;
/** The day a document's name is of (undefined for another document). */
export const attendanceDocDate = (doc: string) => /^attendance-(\d{4}-\d{2}-\d{2})$/.exec(doc)?.[1];

export const checkInChange = (employeeId: string, date: string, checkIn: string): TransactItem =>
  listChange(attendanceDoc(date), employeeId, 1, [checkIn, null]);
export const checkOutChange = (employeeId: string, date: string, checkIn: string, checkOut: string): TransactItem =>
  listChange(attendanceDoc(date), employeeId, 2, [checkIn, checkOut]);

/** The day's records read from the table (the day index): background, or for a day never folded. */
async function rowsFromTable(date: string): Promise<Rows> {
  const records = await AttendanceRecord.queryAll({ index: 'byDay', key: { date } });
  return new Map(records.map((r) => [r.employeeId, [r.checkOut ? 2 : 1, r.checkIn, r.checkOut ?? null]]));
}

export const attendanceList = (date: string): ListSpec => ({
  doc: attendanceDoc(date),
  build: () => rowsFromTable(date),
  read: async (ids) => {
    const found = await AttendanceRecord.getMany(
      ids.map((employeeId) => ({ employeeId, date })),
      { consistent: true },
    );
    return new Map(
      found.flatMap((r) => (r ? [[r.employeeId, [r.checkOut ? 2 : 1, r.checkIn, r.checkOut ?? null]]] : [])),
    );
  },
});

export interface DayRecord {
  checkIn: string;
  checkOut: string | null;
}

/**
 * Every record of a day by person, as of now: the day's document with its pending changes. A day with
 * no document yet (no check-in folded so far: the first minutes of a day, or a day before this
 * release) is read from the day index, which then holds only what the pending changes hold, or the
 * records of a day before this release.
 */
export async function dayRecords(date: string): Promise<Map<string, DayRecord>> {
  const rows = (await readList(attendanceDoc(date))) ?? (await rowsFromTable(date));
  return new Map(
    [...rows].map(([id, row]) => [id, { checkIn: row[1] as string, checkOut: (row[2] as string | null) ?? null }]),
  );
}

/** Folds a day's pending changes (the stream consumer; `full`: the refresh). */
export const foldAttendanceDay = (date: string, opts: { full?: boolean } = {}) => foldList(attendanceList(date), opts);
