import { env } from '../config/env.ts';
import * as z from './zod.ts';

/**
 * Times as the calendar and HR areas take and give them: instants written in ISO 8601 with an
 * offset (kept as given), and company days (`YYYY-MM-DD` in
 * `COMPANY_TIMEZONE`, daylight-saving changes included).
 */
export interface Instant {
  /** As given, normalised to `YYYY-MM-DDTHH:MM:SS[.fff]±HH:MM` (or `Z`) in the offset it was given in. */
  iso: string;
  /** The same instant in UTC (`toISOString`): fixed width, so it sorts as time in keys. */
  utc: string;
  ms: number;
}

const OFFSET_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?([Zz]|[+-]\d{2}:\d{2})$/;

/** Parses an ISO 8601 date-time with an offset; null when it is malformed or names no real moment. */
export function parseInstant(value: string): Instant | null {
  const m = OFFSET_DATE_TIME.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '00', fraction = '', offset] = m;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  if (year < 1970 || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  if (day < 1 || day > daysInMonth(year, month)) return null;
  let offsetMinutes = 0;
  if (offset.toUpperCase() !== 'Z') {
    const [oh, om] = offset.slice(1).split(':').map(Number);
    if (oh > 14 || om > 59) return null;
    offsetMinutes = (offset[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const millis = fraction ? Math.floor(Number(`0${fraction}`) * 1000) : 0;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second, millis) - offsetMinutes * 60_000;
  const utcDate = new Date(ms);
  if (utcDate.getUTCFullYear() > 9999) return null;
  const iso = `${y}-${mo}-${d}T${h}:${mi}:${s}${fraction}${offset.toUpperCase() === 'Z' ? 'Z' : offset}`;
  return { iso, utc: utcDate.toISOString(), ms };
}

/** Parses a value the request schema already checked (`offsetDateTime()`). */
export function instant(value: string): Instant {
  const parsed = parseInstant(value);
  if (!parsed) throw new Error(`not an ISO 8601 date-time with offset: ${value}`);
  return parsed;
}

/** Request field: an ISO 8601 date-time with an offset (or Z). */
export const offsetDateTime = () =>
  z
    .string()
    .check(z.maxLength(40, 'must be an ISO 8601 date-time with offset, e.g. 2026-03-01T09:00:00+05:30'))
    .check(
      z.refine(
        (v) => parseInstant(v) !== null,
        'must be an ISO 8601 date-time with offset, e.g. 2026-03-01T09:00:00+05:30',
      ),
    );

export const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

export function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

/** Whether a `YYYY-MM-DD` string names a real calendar day. */
export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** Request field: a calendar day as `YYYY-MM-DD`. */
export const calendarDate = () =>
  z.string().check(z.refine(isCalendarDate, 'must be a real calendar date as YYYY-MM-DD'));

/** The company day (`YYYY-MM-DD`) an instant falls on, in the company's timezone. */
export function companyDate(at: Date = new Date(), timeZone: string = env.companyTimezone): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** How far the company's timezone is ahead of UTC at an instant (ms; negative west of Greenwich). */
function zoneOffsetMs(at: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(at));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return wall - (at - (at % 1000));
}

/** The instant the company day of `at` began (midnight in `COMPANY_TIMEZONE`, daylight saving included). */
export function startOfCompanyDay(at: Date = new Date(), timeZone: string = env.companyTimezone): Date {
  const [y, m, d] = companyDate(at, timeZone).split('-').map(Number);
  const midnightUtc = Date.UTC(y, m - 1, d);
  // Midnight there is midnight UTC less the offset; the offset is read again at that instant, as it may
  // differ from the one at midnight UTC across a daylight-saving change.
  let guess = midnightUtc - zoneOffsetMs(midnightUtc, timeZone);
  guess = midnightUtc - zoneOffsetMs(guess, timeZone);
  return new Date(guess);
}
