import { beforeAll, describe, expect, it } from 'vitest';
import { listNotifications } from '../../shared/notifications/notifications.ts';
import { shownSlices } from '../../shared/surveys/results.ts';
import { runSurveySchedule } from '../../shared/surveys/schedule.ts';
import { inPool } from '../../shared/util/in-pool.ts';
import { api, newMember, settled } from '../support/api.ts';
import {
  adminCall,
  answer,
  createSurvey,
  DAY,
  expectStatus,
  HOUR,
  openSurveys,
  type Person,
  team,
  WEEK,
} from './helpers.ts';

/**
 * Surveys (docs/surveys.md) through the local runtime: a survey of 40 people answered by 23, its exact
 * totals and slices (suppression, the next-smallest sibling), reminders to exactly those who have not
 * answered, and a recurrence that opens its next run by itself (the schedule run as EventBridge would,
 * with the clock it is given).
 */

// 23 answerers: departments engineering 12, product 8, design 3; locations L1 12, L2 6, L3 3, L4 2.
const deptOf = (i: number) => (i < 12 ? 'engineering' : i < 20 ? 'product' : 'design');
const placeOf = (i: number) => (i < 12 ? 'L1' : i < 18 ? 'L2' : i < 21 ? 'L3' : 'L4');
const ANSWERERS = 23;
const SIZE = 40;

const valuesOf = (i: number) => ({
  scale: (i % 5) + 1,
  enps: i % 11,
  choice: ['office', 'home', 'both'][i % 3]!,
  multi: i % 2 === 0 ? ['quiet', 'tools'] : ['people'],
  text: `Comment number ${i}`,
});

let people: Person[];
let tag: string;
let managerId: string;
let survey: any;

beforeAll(async () => {
  const shape = Array.from({ length: SIZE }, (_, i) =>
    i < ANSWERERS ? { department: deptOf(i), location: placeOf(i) } : { department: 'finance', location: 'L9' },
  );
  const t = await team(shape);
  people = t.people;
  tag = t.tag;
  managerId = t.manager.id;
}, 300_000);

const answersFor = (s: any, i: number) => {
  const v = valuesOf(i);
  const q = s.questions;
  return [
    { questionId: q[0].id, value: v.scale },
    { questionId: q[1].id, value: v.enps },
    { questionId: q[2].id, value: v.choice },
    { questionId: q[3].id, value: v.multi },
    { questionId: q[4].id, value: v.text },
  ];
};

describe('surveys: a survey of 40 answered by 23', () => {
  it('opens for exactly its audience, counts 23 answers exactly, and lists each as answered or not', async () => {
    survey = await createSurvey({ audience: { managerId }, reminders: { everyDays: 2 } });
    expect(survey).toMatchObject({ status: 'draft', run: 0 });
    expect(survey.questions.map((q: any) => typeof q.id)).toEqual(Array(5).fill('string'));
    const opened = expectStatus(await adminCall('POST', `/admin/surveys/${survey.id}/open`), 200, 'open');
    expect(opened).toMatchObject({ status: 'open', run: 1 });
    await settled();
    const after = expectStatus(await adminCall('GET', `/admin/surveys/${survey.id}`), 200, 'get');
    expect(after.runAudience).toBe(SIZE);
    // Every person of the audience sees it, not answered; a bystander neither sees nor answers it.
    for (const p of [people[0]!, people[39]!]) {
      const mine = (await openSurveys(p)).find((s) => s.id === survey.id);
      expect(mine).toMatchObject({ run: 1, answered: false, title: survey.title });
    }
    const outsider = await newMember();
    expect((await openSurveys(outsider)).some((s) => s.id === survey.id)).toBe(false);
    const refused = await api('PUT', `/surveys/${survey.id}/answer`, {
      token: outsider.token,
      body: { answers: answersFor(survey, 0) },
    });
    expect(refused.status).toBe(404);
    // Bad answers: a clear 400, nothing written.
    const bad = await api('PUT', `/surveys/${survey.id}/answer`, {
      token: people[0]!.token,
      body: { answers: [{ questionId: survey.questions[0].id, value: 6 }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ statusCode: 400 });

    // Person 0 answers first with other values, then replaces them: only the replacement counts.
    await answer(people[0]!, survey.id, [
      { questionId: survey.questions[0].id, value: 3 },
      { questionId: survey.questions[4].id, value: 'A first thought, replaced' },
    ]);
    await inPool(
      people.slice(0, ANSWERERS).map((p, i) => ({ p, i })),
      3,
      ({ p, i }) => answer(p, survey.id, answersFor(survey, i)),
    );
    const own = expectStatus(await api('GET', `/surveys/${survey.id}/answer`, { token: people[0]!.token }), 200, 'own');
    expect(own.answers).toEqual(answersFor(survey, 0));
    expect((await api('GET', `/surveys/${survey.id}/answer`, { token: people[30]!.token })).status).toBe(404);
    expect((await openSurveys(people[5]!)).find((s) => s.id === survey.id)?.answered).toBe(true);
    expect((await openSurveys(people[30]!)).find((s) => s.id === survey.id)?.answered).toBe(false);

    const r = expectStatus(await adminCall('GET', `/admin/surveys/${survey.id}/results`), 200, 'results');
    const all = Array.from({ length: ANSWERERS }, (_, i) => valuesOf(i));
    const tally = (xs: string[]) => {
      const m: Record<string, number> = {};
      for (const x of xs) m[x] = (m[x] ?? 0) + 1;
      return m;
    };
    expect(r.responses).toBe(ANSWERERS);
    expect(r.audience).toBe(SIZE);
    const [scale, enps, choice, multi, text] = r.questions;
    expect(scale.counts).toEqual({ '1': 0, '2': 0, '3': 0, '4': 0, '5': 0, ...tally(all.map((v) => String(v.scale))) });
    expect(scale.mean).toBe(Math.round((all.reduce((n, v) => n + v.scale, 0) / ANSWERERS) * 100) / 100);
    const promoters = all.filter((v) => v.enps >= 9).length;
    const detractors = all.filter((v) => v.enps <= 6).length;
    expect(enps.enps).toBe(Math.round(((promoters - detractors) / ANSWERERS) * 100));
    expect(enps.answers).toBe(ANSWERERS);
    expect(choice.counts).toEqual(tally(all.map((v) => v.choice)));
    expect(multi.counts).toEqual(tally(all.flatMap((v) => v.multi)));
    expect([...text.texts].sort()).toEqual(all.map((v) => v.text).sort());
    expect(text.texts).not.toContain('A first thought, replaced');
    console.log(
      `[surveys] 40 asked, 23 answered: mean ${scale.mean}, eNPS ${enps.enps} (${promoters} promoters, ${detractors} detractors)`,
    );

    const csv = await adminCall('GET', `/admin/surveys/${survey.id}/results.csv?by=location`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type') ?? '').toMatch(/text\/csv/);
  });

  it('suppresses slices below the threshold, and the next-smallest sibling when subtraction would reveal one', async () => {
    // Departments: engineering 12, product 8, design 3. Design is below 5; alone it could be had as
    // 23 - 12 - 8, so product goes too.
    const byDept = expectStatus(
      await adminCall('GET', `/admin/surveys/${survey.id}/results?by=department`),
      200,
      'dept',
    );
    expect(byDept.threshold).toBe(5);
    expect(byDept.slices.map((s: any) => [s.value, s.responses])).toEqual([['engineering', 12]]);
    expect(byDept.suppressed).toBe(2);
    // Locations: L1 12, L2 6, L3 3, L4 2. L3 and L4 are below 5, together 5: nobody else need go.
    const byPlace = expectStatus(await adminCall('GET', `/admin/surveys/${survey.id}/results?by=location`), 200, 'loc');
    expect(byPlace.slices.map((s: any) => [s.value, s.responses])).toEqual([
      [`L1 ${tag}`, 12],
      [`L2 ${tag}`, 6],
    ]);
    expect(byPlace.suppressed).toBe(2);
    // The shown slices' figures are exact.
    const l2 = byPlace.slices[1];
    const inL2 = Array.from({ length: 6 }, (_, k) => valuesOf(12 + k));
    expect(l2.questions[0].mean).toBe(Math.round((inL2.reduce((n, v) => n + v.scale, 0) / 6) * 100) / 100);
    // By manager: all 23 under one manager, a slice of its own; no texts in slices.
    const byManager = expectStatus(
      await adminCall('GET', `/admin/surveys/${survey.id}/results?by=manager`),
      200,
      'mgr',
    );
    expect(byManager.slices).toHaveLength(1);
    expect(byManager.slices[0]).toMatchObject({ value: managerId, responses: ANSWERERS });
    expect(byManager.slices[0].questions.some((q: any) => 'texts' in q)).toBe(false);
    // A survey threshold of 10: design and product below, together 11: engineering stays.
    expect(shownSlices([{ responses: 12 }, { responses: 8 }, { responses: 3 }], 10).shown).toEqual([{ responses: 12 }]);
    expect(shownSlices([{ responses: 12 }, { responses: 2 }], 5).shown).toEqual([]);
  });

  it('reminds exactly those who have not answered, and counts them in all only', async () => {
    const before = new Map(await Promise.all(people.map(async (p) => [p.id, await remindersOf(p.id)] as const)));
    const s = expectStatus(await adminCall('GET', `/admin/surveys/${survey.id}`), 200, 'get');
    const done = await runSurveySchedule(new Date(Date.parse(s.runOpenedAt) + 2 * DAY + 60_000));
    expect(done.reminded).toBeGreaterThanOrEqual(SIZE - ANSWERERS);
    const reminded = [];
    for (const p of people) if ((await remindersOf(p.id)) > before.get(p.id)!) reminded.push(p.id);
    expect(reminded.sort()).toEqual(
      people
        .slice(ANSWERERS)
        .map((p) => p.id)
        .sort(),
    );
    // A rerun at the same time sends nothing again.
    await runSurveySchedule(new Date(Date.parse(s.runOpenedAt) + 2 * DAY + 60_000));
    for (const p of people.slice(ANSWERERS, ANSWERERS + 3)) expect(await remindersOf(p.id)).toBe(before.get(p.id)! + 1);
  });

  it('closes on request: no more answers, results stay', async () => {
    expectStatus(await adminCall('POST', `/admin/surveys/${survey.id}/close`), 200, 'close');
    const late = await api('PUT', `/surveys/${survey.id}/answer`, {
      token: people[30]!.token,
      body: { answers: answersFor(survey, 30) },
    });
    expect(late.status).toBe(404);
    expect((await openSurveys(people[30]!)).some((x) => x.id === survey.id)).toBe(false);
    const r = expectStatus(await adminCall('GET', `/admin/surveys/${survey.id}/results`), 200, 'results');
    expect(r.responses).toBe(ANSWERERS);
    expect((await adminCall('PATCH', `/admin/surveys/${survey.id}`, { title: 'Too late' })).status).toBe(409);
  });
});

const remindersOf = async (userId: string) =>
  (await listNotifications(userId, 50)).filter((n) => n.kind === 'survey' && n.preview.startsWith('Reminder')).length;

describe('surveys: recurrence', () => {
  it('opens at its time, closes, and opens its next run by itself a week later; the trend has both runs', async () => {
    const now = Date.now();
    const s = await createSurvey({
      audience: { managerId },
      opensAt: new Date(now + HOUR).toISOString(),
      closesAt: new Date(now + 2 * HOUR).toISOString(),
      recurrence: { everyWeeks: 1 },
      threshold: 3,
    });
    expect((await runSurveySchedule(new Date(now + HOUR - 1000))).opened).toBe(0);
    await runSurveySchedule(new Date(now + HOUR + 1000));
    await settled();
    let got = expectStatus(await adminCall('GET', `/admin/surveys/${s.id}`), 200, 'get');
    expect(got).toMatchObject({ status: 'open', run: 1, runAudience: SIZE });
    const scale = (v: number) => [{ questionId: s.questions[0].id, value: v }];
    for (const [i, v] of [4, 4, 5].entries()) await answer(people[i]!, s.id, scale(v));
    await runSurveySchedule(new Date(now + 2 * HOUR + 1000));
    got = expectStatus(await adminCall('GET', `/admin/surveys/${s.id}`), 200, 'get');
    expect(got).toMatchObject({ status: 'closed', run: 1 });
    // A week on: run 2 opens by itself, frozen and told again; run 1's answers do not count as answered.
    await runSurveySchedule(new Date(now + WEEK + HOUR + 1000));
    await settled();
    got = expectStatus(await adminCall('GET', `/admin/surveys/${s.id}`), 200, 'get');
    expect(got).toMatchObject({ status: 'open', run: 2, runAudience: SIZE });
    expect(Date.parse(got.runClosesAt)).toBe(now + WEEK + 2 * HOUR);
    expect((await openSurveys(people[0]!)).find((x) => x.id === s.id)).toMatchObject({ run: 2, answered: false });
    for (const [i, v] of [2, 2, 2, 3].entries()) await answer(people[i]!, s.id, scale(v));
    const r = expectStatus(await adminCall('GET', `/admin/surveys/${s.id}/results`), 200, 'results');
    expect(r.run).toBe(2);
    expect(r.trend.map((t: any) => [t.run, t.responses, t.questions[0]?.mean])).toEqual([
      [1, 3, 4.33],
      [2, 4, 2.25],
    ]);
    const first = expectStatus(await adminCall('GET', `/admin/surveys/${s.id}/results?run=1`), 200, 'run 1');
    expect(first.responses).toBe(3);
  });
});

describe('surveys: who manages them', () => {
  it('a member may not; a person a super admin names a survey owner may', async () => {
    const m = await newMember();
    expect((await api('GET', '/admin/surveys', { token: m.token })).status).toBe(403);
    expectStatus(await adminCall('PUT', `/admin/survey-owners/${m.id}`), 200, 'name owner');
    const made = await api('POST', '/admin/surveys', {
      token: m.token,
      body: {
        title: 'By an owner',
        questions: [{ kind: 'scale', text: 'Fine?' }],
        closesAt: new Date(Date.now() + DAY).toISOString(),
      },
    });
    expect(made.status).toBe(201);
    // The owner's admin action is in the audit log with them as its actor (docs/audit-log.md, `delegated`).
    const entries = expectStatus(await adminCall('GET', `/admin/audit-log?targetId=${made.body.id}`), 200, 'audit');
    expect(entries.items.map((e: any) => [e.action, e.actorId, e.changed])).toEqual([['survey.create', m.id, true]]);
    expectStatus(await adminCall('DELETE', `/admin/survey-owners/${m.id}`), 204, 'remove owner');
    expect((await api('GET', `/admin/surveys/${made.body.id}`, { token: m.token })).status).toBe(403);
    // No longer an owner: refused, and nothing recorded.
    expect((await api('POST', `/admin/surveys/${made.body.id}/close`, { token: m.token })).status).toBe(403);
    const after = expectStatus(await adminCall('GET', `/admin/audit-log?targetId=${made.body.id}`), 200, 'audit');
    expect(after.items).toHaveLength(1);
    expect((await adminCall('PUT', '/admin/survey-settings', { threshold: 2 })).status).toBe(400);
    expect(
      (
        await adminCall('POST', '/admin/surveys', {
          title: 'x',
          questions: [{ kind: 'choice', text: 'y' }],
          closesAt: new Date(Date.now() + DAY).toISOString(),
        })
      ).status,
    ).toBe(400);
  });
});
