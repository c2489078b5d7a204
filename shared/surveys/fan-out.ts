import type { DynamoDBRecord } from 'aws-lambda';
import { selectedWithValues } from '../audiences/audiences.ts';
import { putMany } from '../db/table.ts';
import { unless } from '../errors.ts';
import { toItemChange } from '../live/change-feed.ts';
import { notifyMany } from '../notifications/notify-many.ts';
import { logger } from '../observability/logger.ts';
import { deliverPush } from '../push/delivery.ts';
import { Survey, SurveyMember } from './entities.ts';
import { changeSurvey, getSurvey, ruleOf } from './surveys.ts';

/**
 * The opening of a run, in the background (a stream consumer, like the company fan-out of
 * announcements): the survey's audience is evaluated over the roster (one read, whatever the company's
 * size) and frozen as one `SurveyMember` entry per person (BatchWrite), each with the person's slice
 * values; the survey records how many it asked; each person gets a notification (and a push). So
 * `GET /surveys` reads a page of a person's entries, flat in the company's size.
 */
export const surveyFanOutFilters: Record<string, unknown>[] = [
  {
    eventName: ['INSERT', 'MODIFY'],
    dynamodb: { NewImage: { entity: { S: [Survey.name] }, fanOut: { S: ['pending'] } } },
  },
];

export async function surveyFanOut(records: DynamoDBRecord[]): Promise<void> {
  for (const r of records) {
    const item = toItemChange(r).newImage;
    if (Survey.is(item) && item.fanOut === 'pending') await fanOutRun(item.id, item.run);
  }
}

/** Freezes run `run`'s audience and tells its people; a no-op when done already (a retried batch). */
export async function fanOutRun(surveyId: string, run: number): Promise<number> {
  const s = await getSurvey(surveyId).catch(unless('not-found'));
  if (!s || s.run !== run || s.fanOut !== 'pending' || !s.runClosesAt) return 0;
  const rule = await ruleOf(s.audience).catch(unless('invalid'));
  // A stored audience deleted since the survey was made asks nobody.
  const people = rule === undefined ? [] : await selectedWithValues(rule);
  await putMany(
    people.map((p) =>
      SurveyMember.item({
        userId: p.id,
        surveyId,
        run,
        closesAt: s.runClosesAt!,
        slices: {
          department: p.company.department || null,
          team: p.company.teamId ?? null,
          location: p.company.location || null,
          manager: p.company.managerId ?? null,
        },
      }),
    ),
  );
  let marked = false;
  await changeSurvey(surveyId, (now) => {
    if (now.run !== run || now.fanOut !== 'pending') return null;
    marked = true;
    const { fanOut: _done, ...rest } = now;
    return { ...rest, runAudience: people.length, runFannedOutAt: new Date().toISOString(), actorId: null };
  });
  // Told once: only the attempt that marked the run tells its people.
  if (!marked) return 0;
  const notes = people.map((p) => ({
    recipientId: p.id,
    kind: 'survey' as const,
    actorId: null,
    preview: `A survey is open until ${s.runClosesAt!.slice(0, 10)}: ${s.title}`,
  }));
  await notifyMany(notes);
  await deliverPush(notes);
  logger.info('survey run opened', { surveyId, run, asked: people.length });
  return people.length;
}
