import { birthdaysIndex } from '../db/keys.ts';
import { isLeapYear } from './time.ts';

/**
 * The birthdays index (gsi5 on the profile item, keyed by month-day) and the dates it is read for.
 * The person entity (shared/people/entities.ts) declares this index with this entry, so every write
 * of a profile keeps it in step with `dateOfBirth`. A person without a date of birth has no entry
 * (the index is sparse).
 */
export function birthdaysEntry(
  userId: string,
  dateOfBirth: string | null | undefined,
): { pk: string; sk: string } | undefined {
  if (!dateOfBirth || !/^\d{4}-\d{2}-\d{2}$/.test(dateOfBirth)) return undefined;
  return { pk: birthdaysIndex.pk(dateOfBirth.slice(5)), sk: birthdaysIndex.sk(userId) };
}

/**
 * The month-days whose people celebrate on this company day: 29 February birthdays are celebrated on
 * 28 February in years that are not leap years.
 */
export function celebratedMonthDays(today: string): string[] {
  const monthDay = today.slice(5);
  return monthDay === '02-28' && !isLeapYear(Number(today.slice(0, 4))) ? ['02-28', '02-29'] : [monthDay];
}

/** Whether a person born on `dateOfBirth` celebrates on the company day `today`. */
export function celebratesOn(dateOfBirth: string | null | undefined, today: string): boolean {
  return !!dateOfBirth && celebratedMonthDays(today).includes(dateOfBirth.slice(5));
}
