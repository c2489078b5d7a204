import { calendarChangeTypes } from '../calendar/change-events.ts';
import { feedChangeTypes } from '../feed/change-events.ts';
import type { ChangeType } from '../live/change-events.ts';
import { notificationChangeTypes } from '../notifications/change-events.ts';
import { peopleChangeTypes } from '../people/change-events.ts';
import { presenceChangeTypes } from '../presence/change-events.ts';
import { surveyChangeTypes } from '../surveys/change-events.ts';

/**
 * Every change type the live stream carries, as each area declares them beside its mappers
 * (`shared/<area>/change-events.ts`, registered in `change-mappers.ts`). Each area adds its own list
 * here; the AsyncAPI document (`asyncapi.ts`) describes exactly these, and a test checks that they
 * are exactly the declarations the registered mappers can emit.
 */
export const changeTypes: readonly ChangeType[] = [
  ...feedChangeTypes,
  ...notificationChangeTypes,
  ...peopleChangeTypes,
  ...calendarChangeTypes,
  ...presenceChangeTypes,
  ...surveyChangeTypes,
];
