import { type ChangeMapper, changeType } from '../live/change-events.ts';
import * as z from '../util/zod.ts';

/**
 * Surveys on the live-update stream: `survey.opened` and `survey.closed` to everyone, from the survey
 * item's status. Answers are never announced: the items that count them are `anon` (kept out of the
 * change feed), so no event exists whose time or payload could tie an answer to anyone.
 */
export const surveyOpened = changeType(
  'survey.opened',
  'everyone',
  'A run of a survey opened: re-read `GET /surveys` (only its audience sees it there).',
  z.object({ surveyId: z.string(), run: z.number().check(z.int()) }),
);
export const surveyClosed = changeType(
  'survey.closed',
  'everyone',
  'A run of a survey closed.',
  z.object({ surveyId: z.string(), run: z.number().check(z.int()) }),
);

/** The survey area's change types (collected by `shared/registry/change-types.ts`). */
export const surveyChangeTypes = [surveyOpened, surveyClosed];

export const surveyChanges: ChangeMapper = (change) => {
  const after = change.newImage;
  const before = change.oldImage;
  if (change.eventName === 'REMOVE' || !after) return [];
  const payload = { surveyId: String(after.id), run: Number(after.run) };
  // No person: an opening or closing by the schedule has none, and one by an admin needs none.
  if (after.status === 'open' && (before?.status !== 'open' || before?.run !== after.run))
    return [surveyOpened.event(null, payload)];
  if (after.status === 'closed' && before?.status === 'open') return [surveyClosed.event(null, payload)];
  return [];
};
