import { birthdaysIndex } from '../db/keys.ts';
import { isLeapYear } from './time.ts';

/**
 * The birthdays index (gsi5 on the profile item, keyed by month-day) and the dates it is read for.
 *
 * This is the hook the people area calls wherever it writes `dateOfBirth` (profile changes by the
 * person or a super admin), in the same update: SET the `set` attributes and REMOVE the `remove` ones.
 * A person without a date of birth has no entry (the index is sparse).
 */
export function birthdayIndexAttributes(
  userId: string,
  dateOfBirth: string | null | undefined,
): { set: Record<string, string>; remove: string[] } {
  const pk = `${birthdaysIndex.index}pk`;
  const sk = `${birthdaysIndex.index}sk`;
  if (!dateOfBirth || !/^\d{4}-\d{2}-\d{2}$/.test(dateOfBirth)) return { set: {}, remove: [pk, sk] };
  return { set: { [pk]: birthdaysIndex.pk(dateOfBirth.slice(5)), [sk]: birthdaysIndex.sk(userId) }, remove: [] };
}

/**
 * The month-days whose people celebrate on this company day: 29 February birthdays are celebrated on
 * 28 February in years that are not leap years (decisions 4).
 */
export function celebratedMonthDays(today: string): string[] {
  const monthDay = today.slice(5);
  return monthDay === '02-28' && !isLeapYear(Number(today.slice(0, 4))) ? ['02-28', '02-29'] : [monthDay];
}

/** Whether a person born on `dateOfBirth` celebrates on the company day `today`. */
export function celebratesOn(dateOfBirth: string | null | undefined, today: string): boolean {
  return !!dateOfBirth && celebratedMonthDays(today).includes(dateOfBirth.slice(5));
}
