import { selectedWithValues } from '../audiences/audiences.ts';
import { Audience } from '../audiences/entities.ts';
import { checkRule, type Rule } from '../audiences/rule.ts';
import { type EntityFields, presentAtRevision } from '../db/entity.ts';
import { newId } from '../db/ids.ts';
import { page } from '../db/paging.ts';
import { isConditionFailure, retryOnConflict, write } from '../db/table.ts';
import { conflict, forbidden, invalid, notFound } from '../errors.ts';
import { Survey, type SurveyItem, SurveyOwner, SurveySettings } from './entities.ts';

/** A survey's fields, as written. */
export type SurveyState = EntityFields<typeof Survey>;

import {
  checkQuestions,
  clampThreshold,
  type Question,
  type QuestionKind,
  type SurveyAudience,
  THRESHOLD,
} from './model.ts';

/**
 * Surveys (docs/surveys.md): what a super admin or a survey owner creates and manages. A survey is a
 * draft until its first run opens (at `opensAt` by the schedule, or by `POST .../open`), then open,
 * then closed; a recurring one opens its next run every `everyWeeks` weeks by itself (schedule.ts).
 */

export const WEEK_MS = 7 * 86_400_000;
const DAY_MS = 86_400_000;

/** Who may manage surveys: a super admin, or a person a super admin named a survey owner. */
export async function requireSurveyManager(caller: { userId: string; role: string }): Promise<void> {
  if (caller.role === 'super_admin') return;
  if (await SurveyOwner.get({ userId: caller.userId }, { consistent: true })) return;
  throw forbidden('Only a super admin or a survey owner may manage surveys.');
}

/** The company's threshold (3..10, 5 unless set). */
export async function companyThreshold(): Promise<number> {
  return (await SurveySettings.get({}, { consistent: true }))?.threshold ?? THRESHOLD.default;
}

export async function setCompanyThreshold(actorId: string, threshold: number): Promise<{ threshold: number }> {
  const t = clampThreshold(threshold);
  if (t !== threshold) throw invalid(`threshold: from ${THRESHOLD.min} to ${THRESHOLD.max}`);
  await write(SurveySettings.put({ threshold: t, updatedAt: new Date().toISOString(), actorId }));
  return { threshold: t };
}

/** The threshold a survey's results use. */
export const thresholdOf = async (s: SurveyItem) => s.threshold ?? (await companyThreshold());

/** The scheduled opening of run `k` (1-based) of a recurring survey. */
export function runOpensAt(s: SurveyState, k: number): string | null {
  const first = s.firstOpenedAt ?? s.opensAt;
  if (!first) return null;
  return new Date(Date.parse(first) + (k - 1) * (s.recurrence?.everyWeeks ?? 0) * WEEK_MS).toISOString();
}

/** The closing of run `k`: `closesAt` moved by the recurrence. */
export const runClosesAt = (s: SurveyState, k: number) =>
  new Date(Date.parse(s.closesAt) + (k - 1) * (s.recurrence?.everyWeeks ?? 0) * WEEK_MS).toISOString();

/** When the schedule next has something to do with a survey; undefined: nothing. */
export function nextAtOf(s: SurveyState): string | undefined {
  if (s.status === 'draft') return s.opensAt ?? undefined;
  if (s.status === 'open') {
    const closes = s.runClosesAt!;
    if (s.reminders && s.runFannedOutAt) {
      const from = Date.parse(s.lastRemindedAt ?? s.runOpenedAt!);
      const remind = new Date(from + s.reminders.everyDays * DAY_MS).toISOString();
      if (remind < closes) return remind;
    }
    return closes;
  }
  return s.recurrence ? (runOpensAt(s, s.run + 1) ?? undefined) : undefined;
}

/** A survey as answers show it (admin routes). */
export const toSurvey = (s: SurveyItem) => ({
  id: s.id,
  title: s.title,
  status: s.status,
  questions: s.questions,
  audience: s.audience,
  opensAt: s.opensAt,
  closesAt: s.closesAt,
  recurrence: s.recurrence,
  threshold: s.threshold,
  reminders: s.reminders,
  run: s.run,
  runOpenedAt: s.runOpenedAt,
  runClosesAt: s.runClosesAt,
  runAudience: s.runAudience,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
});

export interface SurveyInput {
  title: string;
  questions: { kind: QuestionKind; text: string; options?: string[] }[];
  audience?: SurveyAudience;
  opensAt?: string | null;
  closesAt: string;
  recurrence?: { everyWeeks: number } | null;
  threshold?: number | null;
  reminders?: { everyDays: number } | null;
}

/** Checks an audience's references now (a 400 for a team, manager or audience that does not exist). */
export async function checkAudience(a: SurveyAudience): Promise<void> {
  const rule = await ruleOf(a);
  if (rule) await selectedWithValues(rule, true);
}

/** The audiences area's rule a survey audience stands for; null: the whole company. */
export async function ruleOf(a: SurveyAudience): Promise<Rule | null> {
  if ('company' in a) return null;
  if ('teamId' in a) return { teamId: a.teamId };
  if ('department' in a) return { department: a.department } as Rule;
  if ('managerId' in a) return { managerId: a.managerId, chain: true } as Rule;
  if ('id' in a) {
    const found = await Audience.get({ id: a.id }, { consistent: true });
    if (!found) throw invalid('audience.id: no such audience');
    return found.rule;
  }
  const { rule, problems } = checkRule(a.rule);
  if (!rule) throw invalid(problems.map((p) => `${['audience', 'rule', ...p.path].join('.')}: ${p.message}`));
  return rule;
}

function checkTimes(i: { opensAt: string | null; closesAt: string; recurrence: { everyWeeks: number } | null }) {
  const now = Date.now();
  const closes = Date.parse(i.closesAt);
  const problems: string[] = [];
  if (closes <= now) problems.push('closesAt: in the future');
  if (i.opensAt && Date.parse(i.opensAt) >= closes) problems.push('opensAt: before closesAt');
  if (i.recurrence && closes - Date.parse(i.opensAt ?? new Date(now).toISOString()) > i.recurrence.everyWeeks * WEEK_MS)
    problems.push('closesAt: a run must close before the next one opens (within recurrence.everyWeeks)');
  if (problems.length) throw invalid(problems);
}

const withIds = (questions: SurveyInput['questions'], before: Question[] = []): Question[] =>
  questions.map((q, i) => ({
    // An edit keeps the id of a question at the same place with the same kind.
    id: before[i]?.kind === q.kind ? before[i]!.id : newId(),
    kind: q.kind,
    text: q.text.trim(),
    ...(q.options ? { options: q.options.map((o) => o.trim()) } : {}),
  }));

export async function createSurvey(actorId: string, input: SurveyInput): Promise<SurveyItem> {
  checkQuestions(input.questions);
  const audience = input.audience ?? { company: true as const };
  const opensAt = input.opensAt ?? null;
  const recurrence = input.recurrence ?? null;
  checkTimes({ opensAt, closesAt: input.closesAt, recurrence });
  await checkAudience(audience);
  const now = new Date().toISOString();
  const fields = {
    id: newId(),
    title: input.title.trim(),
    questions: withIds(input.questions),
    audience,
    opensAt,
    closesAt: new Date(input.closesAt).toISOString(),
    recurrence,
    threshold: input.threshold ?? null,
    reminders: input.reminders ?? null,
    status: 'draft' as const,
    run: 0,
    firstOpenedAt: null,
    runOpenedAt: null,
    runClosesAt: null,
    runAudience: null,
    runFannedOutAt: null,
    lastRemindedAt: null,
    createdBy: actorId,
    createdAt: now,
    updatedAt: now,
    rev: 0,
    actorId,
  };
  const item = Survey.item({ ...fields, ...nextAtField(fields) });
  await write(Survey.create(item));
  return item;
}

const nextAtField = (s: SurveyState) => {
  const nextAt = nextAtOf(s);
  return nextAt ? { nextAt } : {};
};

export async function getSurvey(id: string): Promise<SurveyItem> {
  const found = await Survey.get({ id }, { consistent: true });
  if (!found) throw notFound('No such survey.');
  return found;
}

export async function listSurveys(p: { limit: number; cursor?: string }) {
  const { items, nextCursor } = await Survey.query({ index: 'all', key: {}, forward: false }, page(p));
  return { items: items.map(toSurvey), nextCursor };
}

/** Writes `after` over `before`, conditioned on the revision read; a 409 after repeated conflicts. */
export async function changeSurvey(
  id: string,
  decide: (before: SurveyItem) => Promise<SurveyState | null> | SurveyState | null,
): Promise<SurveyItem> {
  return retryOnConflict(
    async () => {
      const before = await getSurvey(id);
      const decided = await decide(before);
      if (!decided) return before;
      const { nextAt: _drop, ...rest } = decided;
      const base: SurveyState = { ...rest, rev: before.rev + 1, updatedAt: new Date().toISOString() };
      const after = Survey.item({ ...base, ...nextAtField(base) });
      await write(Survey.change(before, after, presentAtRevision(before.rev)), { returnValues: 'NONE' });
      return after;
    },
    { exhausted: () => conflict('The survey changed while this request ran. Try again.') },
  );
}

export async function updateSurvey(actorId: string, id: string, input: Partial<SurveyInput>): Promise<SurveyItem> {
  if (input.questions) checkQuestions(input.questions);
  if (input.audience) await checkAudience(input.audience);
  return changeSurvey(id, (s) => {
    if (s.status !== 'draft') throw conflict('A survey can be edited only before it opens.');
    const next = {
      ...s,
      title: input.title?.trim() ?? s.title,
      questions: input.questions ? withIds(input.questions, s.questions) : s.questions,
      audience: input.audience ?? s.audience,
      opensAt: input.opensAt === undefined ? s.opensAt : input.opensAt,
      closesAt: input.closesAt ? new Date(input.closesAt).toISOString() : s.closesAt,
      recurrence: input.recurrence === undefined ? s.recurrence : input.recurrence,
      threshold: input.threshold === undefined ? s.threshold : input.threshold,
      reminders: input.reminders === undefined ? s.reminders : input.reminders,
      actorId,
    };
    checkTimes(next);
    return next;
  });
}

export async function deleteSurvey(id: string): Promise<void> {
  const s = await getSurvey(id);
  if (s.status !== 'draft') throw conflict('Only a draft can be deleted; close an opened survey instead.');
  try {
    await write(
      Survey.remove(
        { id },
        {
          ConditionExpression: 'attribute_exists(pk) AND #s = :draft',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':draft': 'draft' },
        },
      ),
      { returnValues: 'NONE' },
    );
  } catch (err) {
    if (isConditionFailure(err)) throw conflict('The survey opened meanwhile.');
    throw err;
  }
}

/**
 * Opens the next run at `now`: status open, run + 1, its closing time; the fan-out (a stream consumer,
 * fan-out.ts) freezes its audience and tells its people.
 */
export function openedRun(s: SurveyState, now: Date, actorId: string | null): SurveyState {
  const run = s.run + 1;
  // Run 1 opened by the schedule counts from its `opensAt` (a late schedule run does not move the runs after it).
  const first = s.firstOpenedAt ?? (s.opensAt && s.opensAt <= now.toISOString() ? s.opensAt : now.toISOString());
  const closes = run === 1 ? s.closesAt : runClosesAt({ ...s, firstOpenedAt: first }, run);
  return {
    ...s,
    status: 'open',
    run,
    firstOpenedAt: first,
    runOpenedAt: now.toISOString(),
    runClosesAt: closes,
    runAudience: null,
    runFannedOutAt: null,
    fanOut: 'pending',
    lastRemindedAt: null,
    actorId,
  };
}

/** `POST /admin/surveys/{id}/open`: opens a draft's first run now. */
export async function openSurvey(actorId: string, id: string): Promise<SurveyItem> {
  return changeSurvey(id, (s) => {
    if (s.status !== 'draft') throw conflict('Only a draft can be opened.');
    if (Date.parse(s.closesAt) <= Date.now()) throw invalid('closesAt: has passed; set a later one first');
    return openedRun(s, new Date(), actorId);
  });
}

export const closedRun = (s: SurveyState, now: Date, actorId: string | null): SurveyState => ({
  ...s,
  status: 'closed',
  runClosesAt: s.runClosesAt && s.runClosesAt < now.toISOString() ? s.runClosesAt : now.toISOString(),
  fanOut: undefined,
  actorId,
});

/** `POST /admin/surveys/{id}/close`: closes the open run now (a recurring survey opens its next one on time). */
export async function closeSurvey(actorId: string, id: string): Promise<SurveyItem> {
  return changeSurvey(id, (s) => {
    if (s.status !== 'open') throw conflict('Only an open survey can be closed.');
    return closedRun(s, new Date(), actorId);
  });
}

// Survey owners.
export async function nameOwner(actorId: string, userId: string, exists: (id: string) => Promise<boolean>) {
  if (!(await exists(userId))) throw notFound('No such person.');
  const item = SurveyOwner.item({ userId, namedAt: new Date().toISOString(), actorId });
  await write(SurveyOwner.put(item));
  return { userId: item.userId, namedAt: item.namedAt };
}

export async function removeOwner(userId: string): Promise<void> {
  try {
    await write(SurveyOwner.remove({ userId }, { ConditionExpression: 'attribute_exists(pk)' }), {
      returnValues: 'NONE',
    });
  } catch (err) {
    if (isConditionFailure(err)) throw notFound('Not a survey owner.');
    throw err;
  }
}

export async function listOwners(p: { limit: number; cursor?: string }) {
  const { items, nextCursor } = await SurveyOwner.query({ index: 'all', key: {} }, page(p));
  return { items: items.map((o) => ({ userId: o.userId, namedAt: o.namedAt })), nextCursor };
}
