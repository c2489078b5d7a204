import { newId } from '../db/ids.ts';
import { page } from '../db/paging.ts';
import { retryOnConflict, type TransactItem, transact } from '../db/table.ts';
import { conflict, notFound } from '../errors.ts';
import { participationTag, participationTags, sealJson, sliceTag, unsealJson } from './anonymity.ts';
import {
  Survey,
  type SurveyItem,
  SurveyMember,
  type SurveyMemberItem,
  SurveyParticipation,
  SurveyRollup,
  SurveyText,
} from './entities.ts';
import {
  type Answer,
  checkAnswers,
  type Question,
  SLICE_DIMENSIONS,
  type SliceDimension,
  type SliceValues,
} from './model.ts';
import { getSurvey } from './surveys.ts';

/**
 * Answers (docs/surveys.md, "Anonymity"). An answer is counted into the run's roll-ups (the total and
 * one slice per dimension) and never stored under or beside its person: the only per-person record is
 * the participation record, addressed by tag(person, survey, run) under SURVEY_SECRET and holding the
 * answer sealed, so that its person can read it back and replace it (the old values are taken out of
 * the same roll-ups they were counted in). One transaction: participation, roll-ups (each conditioned
 * on its revision), free-text items, and a check that the run is still open.
 */

/** What a participation record seals. */
export interface Participation {
  answers: Answer[];
  slices: SliceValues;
  /** The free-text items of this answer (so replacing it removes them). */
  texts: { questionId: string; id: string }[];
}

/** A roll-up's counts: responses, and per question its value counts, sum and number of answers. */
export interface Tally {
  responses: number;
  q: Record<string, { counts: Record<string, number>; sum: number; n: number }>;
}
export interface SealedRollup {
  dimension: SliceDimension | null;
  value: string | null;
  tally: Tally;
}

export const TOTAL = 'TOTAL';
export const sliceKey = (surveyId: string, d: SliceDimension, value: string | null) =>
  `by#${d}#${sliceTag(surveyId, d, value)}`;
export const rollupContext = (surveyId: string, run: number, slice: string) => `rollup|${surveyId}|${run}|${slice}`;
const partContext = (tag: string) => `participation|${tag}`;
export const textContext = (surveyId: string, run: number, questionId: string, id: string) =>
  `text|${surveyId}|${run}|${questionId}|${id}`;

export const emptyTally = (): Tally => ({ responses: 0, q: {} });

/** Adds (`sign` 1) or takes out (-1) one person's answers; a text answer counts in `n` only (its words are a SurveyText). */
export function count(t: Tally, questions: Question[], answers: Answer[], sign: 1 | -1): void {
  const kinds = new Map(questions.map((q) => [q.id, q.kind]));
  t.responses += sign;
  for (const a of answers) {
    const q = t.q[a.questionId] ?? { counts: {}, sum: 0, n: 0 };
    t.q[a.questionId] = q;
    q.n += sign;
    if (kinds.get(a.questionId) === 'text') continue;
    if (typeof a.value === 'number') q.sum += sign * a.value;
    const values = Array.isArray(a.value) ? a.value : [String(a.value)];
    for (const v of values) q.counts[v] = (q.counts[v] ?? 0) + sign;
  }
}

/** The open run a person was asked in: their member entry, or a 404 (not asked, or not open). */
async function askedIn(userId: string, surveyId: string): Promise<{ s: SurveyItem; member: SurveyMemberItem }> {
  const s = await getSurvey(surveyId);
  const member =
    s.status === 'open' && s.runClosesAt
      ? await SurveyMember.get({ userId, closesAt: s.runClosesAt, surveyId, run: s.run }, { consistent: true })
      : undefined;
  if (!member) throw notFound('No open survey of yours has this id.');
  return { s, member };
}

/** The person's participation record of a run, under whichever key of the ring made it. */
async function participationOf(userId: string, surveyId: string, run: number) {
  const tags = participationTags(userId, surveyId, run);
  const found = await SurveyParticipation.getMany(
    tags.map((tag) => ({ tag })),
    { consistent: true },
  );
  const i = found.findIndex(Boolean);
  if (i < 0) return null;
  const item = found[i]!;
  const tag = tags[i]!;
  return { tag, item, value: unsealJson<Participation>(item.sealed, partContext(tag)) };
}

/** `PUT /surveys/{id}/answer`: records or replaces the caller's answer to the open run. */
export async function putAnswer(userId: string, surveyId: string, input: Answer[]): Promise<void> {
  await retryOnConflict(
    async () => {
      const { s, member } = await askedIn(userId, surveyId);
      const answers = checkAnswers(s.questions, input);
      const run = s.run;
      const before = await participationOf(userId, surveyId, run);
      const old = before?.value ?? null;
      const keysOf = (slices: SliceValues) => [TOTAL, ...SLICE_DIMENSIONS.map((d) => sliceKey(surveyId, d, slices[d]))];
      const newKeys = keysOf(member.slices);
      const oldKeys = old ? keysOf(old.slices) : [];
      const all = [...new Set([...newKeys, ...oldKeys])];
      const stored = await SurveyRollup.getMany(
        all.map((slice) => ({ surveyId, run, slice })),
        { consistent: true },
      );
      const writes: TransactItem[] = [
        Survey.check(
          { id: surveyId },
          {
            ConditionExpression: '#s = :open AND #r = :run',
            ExpressionAttributeNames: { '#s': 'status', '#r': 'run' },
            ExpressionAttributeValues: { ':open': 'open', ':run': run },
          },
        ),
      ];
      all.forEach((slice, i) => {
        const item = stored[i];
        const ctx = rollupContext(surveyId, run, slice);
        const dimension = slice === TOTAL ? null : (SLICE_DIMENSIONS.find((d) => slice.startsWith(`by#${d}#`)) ?? null);
        const opened = item ? unsealJson<SealedRollup>(item.sealed, ctx) : null;
        const r: SealedRollup = opened ?? {
          dimension,
          value: dimension ? member.slices[dimension] : null,
          tally: emptyTally(),
        };
        if (old && oldKeys.includes(slice)) count(r.tally, s.questions, old.answers, -1);
        if (newKeys.includes(slice)) count(r.tally, s.questions, answers, 1);
        const fields = { surveyId, run, slice, sealed: sealJson(r, ctx), rev: (item?.rev ?? 0) + 1 };
        writes.push(
          item
            ? SurveyRollup.put(fields, {
                ConditionExpression: 'rev = :rev',
                ExpressionAttributeValues: { ':rev': item.rev },
              })
            : SurveyRollup.put(fields, { ConditionExpression: 'attribute_not_exists(pk)' }),
        );
      });
      for (const t of old?.texts ?? [])
        writes.push(SurveyText.remove({ surveyId, run, questionId: t.questionId, id: t.id }));
      const kinds = new Map(s.questions.map((q) => [q.id, q.kind]));
      const texts: Participation['texts'] = [];
      for (const a of answers) {
        if (kinds.get(a.questionId) !== 'text') continue;
        const id = newId();
        texts.push({ questionId: a.questionId, id });
        writes.push(
          SurveyText.put({
            surveyId,
            run,
            questionId: a.questionId,
            id,
            sealed: sealJson(a.value, textContext(surveyId, run, a.questionId, id)),
          }),
        );
      }
      const tag = participationTag(userId, surveyId, run);
      const sealed = sealJson({ answers, slices: member.slices, texts } satisfies Participation, partContext(tag));
      if (before && before.tag !== tag) writes.push(SurveyParticipation.remove({ tag: before.tag }));
      writes.push(
        before && before.tag === tag
          ? SurveyParticipation.put(
              { tag, sealed, rev: before.item.rev + 1 },
              { ConditionExpression: 'rev = :rev', ExpressionAttributeValues: { ':rev': before.item.rev } },
            )
          : SurveyParticipation.put({ tag, sealed, rev: 1 }, { ConditionExpression: 'attribute_not_exists(pk)' }),
      );
      await transact(writes);
    },
    { exhausted: () => conflict('Many answers arrived at once. Try again.') },
  );
}

/** `GET /surveys/{id}/answer`: the caller's own answer to the open run (404 when they gave none). */
export async function getOwnAnswer(userId: string, surveyId: string): Promise<{ answers: Answer[] }> {
  const { s } = await askedIn(userId, surveyId);
  const found = await participationOf(userId, surveyId, s.run);
  if (!found?.value) throw notFound('You have not answered this survey.');
  return { answers: found.value.answers };
}

/** `GET /surveys`: a page of the caller's open surveys, each with whether they answered it. */
export async function listOpenSurveys(userId: string, p: { limit: number; cursor?: string }) {
  const now = new Date().toISOString();
  const { items, nextCursor } = await SurveyMember.query({ key: { userId }, after: { closesAt: now } }, page(p));
  const surveys = await Survey.getMany(
    items.map((m) => ({ id: m.surveyId })),
    { consistent: true },
  );
  const open = items.flatMap((m, i) => {
    const s = surveys[i];
    return s && s.status === 'open' && s.run === m.run ? [{ m, s }] : [];
  });
  const tagsOf = open.map(({ m }) => participationTags(userId, m.surveyId, m.run));
  const found = await SurveyParticipation.getMany(
    tagsOf.flat().map((tag) => ({ tag })),
    { consistent: true },
  );
  const answered = new Set(tagsOf.flat().filter((_, i) => found[i] !== undefined));
  return {
    items: open.map(({ s }, i) => ({
      id: s.id,
      title: s.title,
      questions: s.questions,
      run: s.run,
      opensAt: s.runOpenedAt!,
      closesAt: s.runClosesAt!,
      answered: tagsOf[i]!.some((t) => answered.has(t)),
    })),
    nextCursor,
  };
}

/** Whether each of these people answered a run (reminders): a BatchGet of their tags. */
export async function answeredAmong(userIds: string[], surveyId: string, run: number): Promise<Set<string>> {
  const tagsOf = userIds.map((u) => participationTags(u, surveyId, run));
  const found = await SurveyParticipation.getMany(
    tagsOf.flat().map((tag) => ({ tag })),
    { consistent: true },
  );
  const done = new Set(tagsOf.flat().filter((_, i) => found[i] !== undefined));
  return new Set(userIds.filter((_, i) => tagsOf[i]!.some((t) => done.has(t))));
}
