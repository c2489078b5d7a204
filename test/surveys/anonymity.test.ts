import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler as listNotificationsHandler } from '../../functions/notifications/list-notifications.ts';
import { handler as putAnswerHandler } from '../../functions/surveys/put-survey-answer.ts';
import { Session } from '../../shared/auth/entities.ts';
import { hashToken } from '../../shared/auth/tokens.ts';
import { erasureOf } from '../../shared/data-rights/erasure.ts';
import { db, tableName } from '../../shared/db/client.ts';
import { transact } from '../../shared/db/table.ts';
import { ANON_ATTRIBUTE } from '../../shared/db/table-definition.ts';
import { logger } from '../../shared/observability/logger.ts';
import { changeMappers } from '../../shared/registry/change-mappers.ts';
import { participationTags } from '../../shared/surveys/anonymity.ts';
import { putAnswer } from '../../shared/surveys/answers.ts';
import { SurveyParticipation } from '../../shared/surveys/entities.ts';
import { mentions, personalItems, scanTable, timesIn } from '../grievances/helpers.ts';
import { api, settled, uniq } from '../support/api.ts';
import { invokeCapturingLogs } from '../support/lambda-event.ts';
import { runtimeOfItsOwn, type SeededCompany } from '../support/seeded-company.ts';
import { streamRecorder } from '../support/stream-records.ts';
import { adminCall, createSurvey, expectStatus, type Person, team } from './helpers.ts';

/**
 * The grievance channel's anonymity tests (test/grievances/anonymity-at-rest.test.ts), run on surveys:
 * the table (an export, a backup), the stream, the writes, the log lines and their timing, read from
 * outside with everything the service stores but its secret. Each prints its figures.
 */

const ANSWER_KINDS = ['SurveyParticipation', 'SurveyRollup', 'SurveyText'];
const identity = (p: Person) => [p.id, p.email, p.name];

let runtime: SeededCompany;
let people: Person[];
let survey: any;
let texts: string[];
beforeAll(async () => {
  runtime = await runtimeOfItsOwn();
  // Six people, each the only one of their department: every slice is a single person.
  const departments = ['engineering', 'product', 'design', 'finance', 'legal', 'support'];
  const t = await team(departments.map((department, i) => ({ department, location: `Place ${i}` })));
  people = t.people;
  survey = await createSurvey({ audience: { managerId: t.manager.id }, threshold: 3 });
  expectStatus(await adminCall('POST', `/admin/surveys/${survey.id}/open`), 200, 'open');
  await settled();
  texts = people.map(() => `Only I would write this ${uniq()}`);
}, 300_000);
afterAll(() => runtime?.stop());

const answersOf = (i: number) => [
  { questionId: survey.questions[0].id, value: (i % 5) + 1 },
  { questionId: survey.questions[1].id, value: i },
  { questionId: survey.questions[2].id, value: 'home' },
  { questionId: survey.questions[4].id, value: texts[i]! },
];

/** The writes one unit makes (a transaction or a single write), as the grievance test reads them. */
function unitText(command: any): string | null {
  const input = command?.input ?? {};
  if (Array.isArray(input.TransactItems) || input.Item || input.UpdateExpression || input.RequestItems)
    return JSON.stringify(input);
  return null;
}

describe('surveys: anonymity at rest, in the stream and the writes', () => {
  it('answering writes nothing that names its person, nor anything personal; the answer items hold no person, text or time', async () => {
    // Sessions a day and more old: a route that is not anonymous would refresh them (the control of
    // the grievance test), so an unchanged session shows the answer route touched none.
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600e3).toISOString();
    for (const p of people)
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: Session.key({ tokenHash: hashToken(p.token) }),
          UpdateExpression: 'SET updatedAt = :u',
          ExpressionAttributeValues: { ':u': twoDaysAgo },
        }),
      );
    const before = new Map(await settled().then(() => personalItems(people)));
    const recorder = streamRecorder();
    await recorder.start();
    const units: string[] = [];
    const client = db();
    const send = client.send.bind(client);
    const spy = vi.spyOn(client, 'send').mockImplementation(((command: any, ...rest: any[]) => {
      const t = unitText(command);
      if (t) units.push(t);
      return (send as any)(command, ...rest);
    }) as never);
    try {
      // Three through the domain in this process (their writes recorded), three over HTTP, and one
      // replacement of each kind.
      for (const i of [0, 1, 2]) await putAnswer(people[i]!.id, survey.id, answersOf(i));
      await putAnswer(people[0]!.id, survey.id, answersOf(0));
    } finally {
      spy.mockRestore();
    }
    for (const i of [3, 4, 5]) {
      const res = await api('PUT', `/surveys/${survey.id}/answer`, {
        token: people[i]!.token,
        body: { answers: answersOf(i) },
      });
      expect(res.status, res.text).toBe(204);
    }
    const again = await api('PUT', `/surveys/${survey.id}/answer`, {
      token: people[3]!.token,
      body: { answers: answersOf(3) },
    });
    expect(again.status).toBe(204);
    await settled();

    // Nothing personal changed: no session refresh, no entry marked, no notification, at any time.
    const after = new Map(await personalItems(people));
    expect(after).toEqual(before);

    const items = await scanTable();
    const answerItems = items.filter((i) => ANSWER_KINDS.includes(i.entity));
    expect(answerItems.filter((i) => i.entity === 'SurveyParticipation')).toHaveLength(6);
    expect(answerItems.filter((i) => i.entity === 'SurveyText')).toHaveLength(6);
    // The total and one roll-up per slice of each of the four dimensions (six departments, six places,
    // one team (none), one manager).
    expect(answerItems.filter((i) => i.entity === 'SurveyRollup')).toHaveLength(1 + 6 + 6 + 1 + 1);
    for (const item of answerItems) {
      const text = JSON.stringify(item);
      for (const p of people) expect(mentions(text, identity(p)), `${item.pk}/${item.sk} names ${p.name}`).toEqual([]);
      expect(mentions(text, texts), `${item.pk}/${item.sk} holds an answer's words`).toEqual([]);
      expect(item[ANON_ATTRIBUTE], `${item.pk}/${item.sk} carries the anon attribute`).toBe(true);
      expect(timesIn(item), `${item.pk}/${item.sk} carries a time`).toEqual([]);
      expect(item.actorId ?? null).toBeNull();
    }
    // No item at all holds an answer's words in the clear; the department of a one-person slice is
    // not in any answer item either (the slice's key is a keyed tag).
    expect(items.filter((i) => mentions(JSON.stringify(i), texts).length > 0)).toEqual([]);
    expect(answerItems.filter((i) => /engineering|Place 0/.test(JSON.stringify(i)))).toEqual([]);
    // The audience entries of those who answered look like everybody's.
    const entries = items.filter((i) => i.entity === 'SurveyMember' && i.surveyId === survey.id);
    expect(entries).toHaveLength(6);
    for (const e of entries) expect(Object.keys(e).sort()).toEqual(Object.keys(entries[0]!).sort());

    // The stream: no record names a person and the survey's answers; none written while they
    // answered names any of them.
    await settled();
    const records = await recorder.read();
    const personal = (t: string) =>
      mentions(
        t,
        people.flatMap((p) => [p.id, p.email]),
      ).length > 0;
    const answerRecords = records.filter((r) => ANSWER_KINDS.includes(String((r.newImage ?? r.oldImage)?.entity)));
    expect(answerRecords.length).toBeGreaterThan(0);
    for (const r of records) {
      const text = JSON.stringify([r.keys, r.newImage ?? null, r.oldImage ?? null]);
      expect(personal(text), `${r.eventName} ${JSON.stringify(r.keys)} names a person`).toBe(false);
      expect(mentions(text, texts)).toEqual([]);
    }
    // The writes: none names a person.
    expect(units.length).toBeGreaterThan(0);
    for (const u of units) expect(personal(u), 'a write names a person').toBe(false);
    console.log(
      `[surveys anonymity] table: ${items.length} items scanned, ${answerItems.length} answer items, none naming a person, words or time; stream: ${records.length} records while 6 answered and 2 replaced (${answerRecords.length} of answer items), none naming a person; writes: ${units.length} units, none naming a person; personal items: ${before.size}, unchanged`,
    );

    // The control: a route that is not anonymous refreshes the two-day-old session.
    const s0 = Session.key({ tokenHash: hashToken(people[0]!.token) });
    expectStatus(await api('GET', '/notifications', { token: people[0]!.token }), 200, 'control');
    expect(new Map(await personalItems([people[0]!])).get(`${s0.pk}|${s0.sk}`)).not.toEqual(
      after.get(`${s0.pk}|${s0.sk}`),
    );

    // The results are what was answered, and the one-person slices are not shown.
    const r = expectStatus(await adminCall('GET', `/admin/surveys/${survey.id}/results?by=department`), 200, 'r');
    expect(r.responses).toBe(6);
    expect(r.slices).toEqual([]);
    expect(r.suppressed).toBe(6);
    expect([...r.questions[4].texts].sort()).toEqual([...texts].sort());
    // Each person reads back their own answer, and only through their own session.
    for (const i of [0, 4]) {
      const own = expectStatus(
        await api('GET', `/surveys/${survey.id}/answer`, { token: people[i]!.token }),
        200,
        'own',
      );
      expect(own.answers).toEqual(answersOf(i));
    }
  });

  it('answer items have no change mapper; a survey event names nobody', () => {
    for (const kind of ANSWER_KINDS) expect(changeMappers[kind]).toBeUndefined();
    const events = changeMappers.Survey!({
      eventName: 'MODIFY',
      oldImage: { entity: 'Survey', id: 's', run: 1, status: 'draft', actorId: 'someone' },
      newImage: { entity: 'Survey', id: 's', run: 1, status: 'open', actorId: 'someone' },
    } as never);
    expect(events.map((e) => [e.type, e.actorId])).toEqual([['survey.opened', null]]);
  });

  it('erasure removes the participation record and the entry, and the totals stay', async () => {
    const p = people[2]!;
    const entry = (await scanTable()).find(
      (i) => i.entity === 'SurveyMember' && i.userId === p.id && i.surveyId === survey.id,
    )!;
    const plan = await erasureOf(entry, { userId: p.id, email: p.email, name: p.name, pseudonym: `erased-${uniq()}` });
    expect(plan?.outcome).toBe('deleted');
    await transact(plan!.writes);
    const left = await SurveyParticipation.getMany(
      participationTags(p.id, survey.id, 1).map((tag) => ({ tag })),
      {
        consistent: true,
      },
    );
    expect(left.filter(Boolean)).toEqual([]);
    const r = expectStatus(await adminCall('GET', `/admin/surveys/${survey.id}/results`), 200, 'r');
    expect(r.responses).toBe(6);
    expect(r.questions[4].texts).toContain(texts[2]);
  });
});

describe('surveys: log lines', () => {
  afterEach(() => vi.restoreAllMocks());

  it('the answer route logs no user id, e-mail or name; another route does log the caller', async () => {
    const previous = logger.getLevelName();
    logger.setLogLevel('INFO');
    const keepLevel = vi.spyOn(logger, 'refreshSampleRateCalculation').mockImplementation(() => undefined);
    const invoke = (handler: any, p: Person, method: string, path: string, params?: any, body?: unknown) =>
      invokeCapturingLogs(handler, p.token, { method, path, params, body });
    try {
      const p = people[5]!;
      const path = `/api/v1/surveys/${survey.id}/answer`;
      const ok = await invoke(putAnswerHandler, p, 'PUT', path, { surveyId: survey.id }, { answers: answersOf(5) });
      expect(ok.res.statusCode).toBe(204);
      const bad = await invoke(putAnswerHandler, p, 'PUT', path, { surveyId: survey.id }, { answers: [] });
      expect(bad.res.statusCode).toBe(400);
      for (const call of [ok, bad]) {
        expect(call.log).toContain('"route"');
        expect(mentions(call.log, identity(p))).toEqual([]);
      }
      const control = await invoke(listNotificationsHandler, p, 'GET', '/api/v1/notifications');
      expect(control.res.statusCode).toBe(200);
      expect(control.log).toContain(p.id);
      console.log(
        `[surveys anonymity] log lines: ${ok.log.length + bad.log.length} bytes of the answer route, no id, e-mail or name`,
      );
    } finally {
      keepLevel.mockRestore();
      logger.setLogLevel(previous as 'INFO');
    }
  });
});
