import { isLeapYear } from '../util/time.ts';

/**
 * The birthdays index (gsi5 on the profile item, `BIRTHDAYS#<MM-DD>` / `<userId>`) and the dates it is
 * read for. The person entity (shared/people/entities.ts) declares this index with `birthdayMonthDay`,
 * so every write of a profile keeps it in step with `dateOfBirth`. A person without a date of birth has
 * no entry (the index is sparse).
 */
export function birthdayMonthDay(dateOfBirth: string | null | undefined): string | undefined {
  if (!dateOfBirth || !/^\d{4}-\d{2}-\d{2}$/.test(dateOfBirth)) return undefined;
  return dateOfBirth.slice(5);
}

/**
 * A date of birth that falls on `monthDay`: what a query of the birthdays index gives for its partition
 * (the index keys people by the month-day of their `dateOfBirth`). 2000 is a leap year, so 29 February too.
 */
export const bornOn = (monthDay: string) => `2000-${monthDay}`;

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
