/**
 * Company at 50,000 people (issue: no request does work that grows with the company). On a whole
 * local runtime (DynamoDB Local, the gateway with its integration timeout, every function in its own
 * worker cut off at its deadline, the stream consumers), with 50,000 active people seeded straight
 * into the table through the entity declarations (a management tree, teams, today's attendance),
 * five of them celebrating today in COMPANY_TIMEZONE:
 * - the first GET /birthdays/today (the one that claims the five announcements), GET /admin/members,
 *   GET /org-chart and GET /attendance/today, as a super admin: each must answer 200 within its
 *   function's deadline (the route table's timeout);
 * - while the company fan-out consumer sends the day's birthday notification and an announcement to
 *   everybody, 20 replies in a thread: the p99 delay until the thread's starter has the reply
 *   notification (budget 2 s; issue 38: personal notifications never wait behind company-wide ones);
 * - after the fan-outs: every one of the people holds exactly one birthday notification (decisions
 *   §8: one per person per day, naming the day's birthday people but themselves), and the writes of the
 *   birthday day and of the announcement (budget: the birthday day at most one notification per person
 *   plus a small constant; the announcement one notification per person, in pages of 49).
 * The seeding happens before the runtime starts, so the stream poller (which starts at the stream's
 * end) does not replay it through the change feed: the section measures the requests and the
 * fan-out, not the loading. The whole lists' documents are then built once, as the refresh does.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { ensureTable, setTableStream, startDynamoDbLocal } from '../../infra/local/dynamodb.ts';
import { freePort, prepareEnvironment } from '../../infra/local/runtime.ts';
import { FIRST_NAMES, LAST_NAMES } from '../../infra/seed/company.ts';
import { routeSettings } from '../../shared/api/function-settings.ts';
import type { AnyRoute } from '../../shared/api/route-def.ts';
import { getAttendanceTodayRoute } from '../../shared/api/routes/attendance.ts';
import { listTodaysBirthdaysRoute } from '../../shared/api/routes/birthdays.ts';
import { listMembersRoute } from '../../shared/api/routes/members.ts';
import { getOrgChartRoute } from '../../shared/api/routes/profiles.ts';
import type { Item } from '../../shared/db/table.ts';
import { openedNotifications } from '../support/stored-data.ts';
import {
  batchWrite,
  benchTeamItems,
  isolatedSection,
  json,
  migrationsDoneItems,
  rnd,
  startSectionRuntime,
} from './support.ts';

/**
 * The issue's company (38: at 50,000 people). Seeding it here does not finish in a session (issue 45:
 * 10,000 took 17 minutes, 0.10 s a person, on a shared machine; docs/scale.md models 50,000), so the
 * budget stays at that size and fails until the seeding does; `COMPANY_BENCH_PEOPLE=8000` is what this
 * 2-core machine seeds within 15 minutes, `COMPANY_BENCH_PEOPLE=2000` tries the section quicker.
 */
const PEOPLE = Number(process.env.COMPANY_BENCH_PEOPLE ?? 50_000);
const BIRTHDAYS = 5;
/** Direct reports per manager: a tree six levels deep at 50,000 people. */
const SPAN = 8;
const TEAM_SIZE = 100;
/** Share of the company checked in today (a tenth of them already checked out). */
const PRESENT_SHARE = 0.6;
/** How long the fan-outs (the birthday day, the announcement) may take before the section gives up. */
const FAN_OUT_LIMIT_MS = 15 * 60_000;
/** Replies measured while the company-wide fan-outs run, and the budget of their p99 delay. */
const REPLIES = 20;
const REPLY_BUDGET_MS = 2_000;
/** Notifications a transaction of the fan-outs records (notify-many.ts NOTIFICATIONS_PER_TRANSACTION). */
const PAGE = 49;

const TITLES = ['Engineer', 'Designer', 'Analyst', 'Manager', 'Writer', 'Recruiter'];
const LOCATIONS = ['Lisbon', 'Porto', 'Berlin', 'Madrid', 'Paris', 'London', 'Remote'];
const WORDS = 'build ship design review plan test deploy measure write learn teach debug mentor lead scale'.split(' ');
const pick = <T>(list: readonly T[]) => list[rnd(list.length)];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function call(baseUrl: string, path: string, token: string) {
  const started = performance.now();
  const res = await fetch(`${baseUrl}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json().catch(() => undefined)) as any;
  return { status: res.status, ms: performance.now() - started, body };
}

export async function companyBench(): Promise<boolean> {
  const started = performance.now();
  const dataDir = mkdtempSync(join(tmpdir(), 'workplace-bench-company-'));
  const restore = isolatedSection();
  process.env.LOG_LEVEL ??= 'ERROR';
  // In memory: seeding the people with their indexes is several times quicker than on disk.
  const dynamo = await startDynamoDbLocal(null, await freePort());
  process.env.AWS_ENDPOINT_URL_DYNAMODB = dynamo.endpoint;
  prepareEnvironment(dataDir);
  // Loaded once the environment is set (COMPANY_TIMEZONE, TABLE_NAME).
  const { projectionItems } = await import('../../shared/people/derived-from-person.ts');
  const { blankProfile } = await import('../../shared/people/users.ts');
  const { AttendanceRecord, PresentCounter } = await import('../../shared/hr/entities.ts');
  const { BirthdayDay } = await import('../../shared/calendar/entities.ts');
  const { AnnouncementNotice } = await import('../../shared/feed/entities.ts');
  const { birthdayPreview } = await import('../../shared/calendar/birthdays/announce.ts');
  const { companyDate } = await import('../../shared/util/time.ts');
  const table = process.env.TABLE_NAME!;
  const raw = new DynamoDBClient({ endpoint: dynamo.endpoint, region: process.env.AWS_REGION });
  const doc = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });
  let runtime: Awaited<ReturnType<typeof startSectionRuntime>> | undefined;
  try {
    // Seeded with the stream off, turned on before the runtime starts (see setTableStream).
    await ensureTable(raw, table, { stream: false });
    const today = companyDate(new Date());
    const now = new Date().toISOString();

    // 1. The company: person 0 leads, person i reports to person (i - 1) / SPAN; teams of TEAM_SIZE.
    const t0 = performance.now();
    const teams = Array.from({ length: Math.ceil(PEOPLE / TEAM_SIZE) }, () => randomUUID());
    const ids = Array.from({ length: PEOPLE }, () => randomUUID());
    const birthdayIndexes = new Set(
      Array.from({ length: BIRTHDAYS }, (_, k) => 1 + k * Math.floor(PEOPLE / BIRTHDAYS)),
    );
    const people = ids.map((id, i) => {
      const reports = Math.max(0, Math.min(PEOPLE, SPAN * i + SPAN + 1) - (SPAN * i + 1));
      return {
        pk: '',
        sk: '',
        entity: 'User',
        ...blankProfile(),
        id,
        email: `company-${i}@example.com`,
        name: `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)} ${i}`,
        role: 'member',
        status: 'active',
        title: pick(TITLES),
        location: pick(LOCATIONS),
        bio: Array.from({ length: 12 }, () => pick(WORDS)).join(' '),
        skills: [pick(WORDS), pick(WORDS), pick(WORDS)].filter((s, k, all) => all.indexOf(s) === k),
        teamId: teams[Math.floor(i / TEAM_SIZE)],
        managerId: i === 0 ? null : ids[Math.floor((i - 1) / SPAN)],
        reportCount: reports,
        postCount: 0,
        // Today's birthday people were born on today's month-day; nobody else is (the 1st of a
        // month nobody else shares would do too, but a fixed other day keeps the rest out of today's index).
        dateOfBirth: birthdayIndexes.has(i)
          ? `${1980 + (i % 20)}-${today.slice(5)}`
          : `1985-${today.slice(5, 7) === '06' ? '07' : '06'}-15`,
        joinedAt: new Date(Date.UTC(2015, 0, 1) + i * 3_600_000).toISOString(),
      } as any;
    });
    const teamItems = benchTeamItems(teams, now, (i) => Math.min(TEAM_SIZE, PEOPLE - i * TEAM_SIZE));
    const present = people.filter(() => rnd(1000) < PRESENT_SHARE * 1000);
    const attendance: Item[] = present.map((p, k) =>
      AttendanceRecord.item({
        employeeId: p.id,
        date: today,
        checkIn: now,
        checkOut: k % 10 === 0 ? now : null,
        actorId: p.id,
      }),
    );
    const stillPresent = present.filter((_, k) => k % 10 !== 0).length;
    const counter = { ...PresentCounter.key({ date: today }), entity: 'PresentCounter', present: stillPresent };
    // The profile items as the entity declares them (indexes: members, directory, birthdays), with
    // their directory projection, team memberships and facets.
    const items = [
      ...teamItems,
      ...projectionItems(people),
      ...(await migrationsDoneItems(now)),
      ...attendance,
      counter,
    ];
    await batchWrite(doc, table, items);
    console.log(
      `company: seeded ${PEOPLE} people (${items.length} items: profiles, directory rows and terms, ${teams.length} teams, ${present.length} checked in today, ${BIRTHDAYS} birthdays on ${today}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    // 2. The runtime on that table: routes, consumers; no schedules (the birthday sweep would claim first).
    await setTableStream(raw, table, true);
    const admin = { email: 'company-admin@example.com', password: 'admin-password-1' };
    runtime = await startSectionRuntime(dataDir, admin);
    const signIn = await fetch(`${runtime.baseUrl}/api/v1/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(admin),
    });
    const token = signIn.headers.get('set-auth-token');
    if (!token) throw new Error(`sign-in answered ${signIn.status}`);
    // The seeding wrote no change items (the table straight, before the stream poller started): the
    // whole lists' documents are built as the refresh schedule builds them (shared/whole-lists/consumer.ts),
    // so the reads below measure the documents, not the first-deployment path that reads the table whole.
    const built = performance.now();
    const { refreshLists } = await import('../../shared/whole-lists/consumer.ts');
    const { readDocument } = await import('../../shared/documents/whole-list.ts');
    await refreshLists();
    // A fold of the admin's own creation may hold the roster's lease meanwhile (it builds it whole too).
    for (let i = 0; !(await readDocument('roster')) && i < 300; i++) await new Promise((r) => setTimeout(r, 100));
    console.log(`company: whole lists' documents built in ${((performance.now() - built) / 1000).toFixed(1)} s`);

    // A thread, and two members with sessions: its starter, told of each reply, and the replier.
    const member = async (name: string) => {
      const email = `company-${randomUUID().slice(0, 8)}@example.com`;
      const created = await json(
        runtime!.baseUrl,
        'POST',
        '/admin/members',
        { name, email, password: 'bench-password-1' },
        token,
      );
      if (created.status !== 201) throw new Error(`create member answered ${created.status}`);
      const res = await fetch(`${runtime!.baseUrl}/api/v1/auth/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'bench-password-1' }),
      });
      return { id: created.body.id as string, token: res.headers.get('set-auth-token')! };
    };
    const starter = await member('Thread Starter');
    const replier = await member('Quick Replier');
    const threadPost = await json(runtime.baseUrl, 'POST', '/posts', { content: 'a thread to answer' }, starter.token);
    const thread = await json(
      runtime.baseUrl,
      'POST',
      `/posts/${threadPost.body.id}/comments`,
      { content: 'first' },
      starter.token,
    );
    /** Posts a reply and answers how long until the starter's list shows its notification (ms; Infinity past 30 s). */
    const replyDelay = async (content: string) => {
      const reply = await json(
        runtime!.baseUrl,
        'POST',
        `/posts/${threadPost.body.id}/comments`,
        { content, parentId: thread.body.id },
        replier.token,
      );
      const sent = performance.now();
      while (performance.now() - sent < 30_000) {
        const list = await json(runtime!.baseUrl, 'GET', '/notifications?limit=50', undefined, starter.token);
        if (list.body?.some?.((n: any) => n.kind === 'reply' && n.commentId === reply.body?.id))
          return performance.now() - sent;
        await sleep(50);
      }
      return Number.POSITIVE_INFINITY;
    };
    await replyDelay('warming up'); // every function on the reply's way started once (no cold start measured)

    // 3. The four reads. The first GET /birthdays/today claims the five birthday people, which starts the day's fan-out.
    let ok = true;
    const reads: [AnyRoute, string, (body: any) => string | null][] = [
      [
        listTodaysBirthdaysRoute,
        '/birthdays/today',
        (b) => (Array.isArray(b) && b.length === BIRTHDAYS ? null : `${b?.length} birthdays, not ${BIRTHDAYS}`),
      ],
      [
        listMembersRoute,
        '/admin/members',
        // The seeded people, the first admin, and the thread's starter and replier made above.
        (b) => (Array.isArray(b) && b.length === PEOPLE + 3 ? null : `${b?.length} members, not ${PEOPLE + 3}`),
      ],
      [
        getOrgChartRoute,
        '/org-chart',
        (b) =>
          Array.isArray(b) && b.filter((n: any) => n.managerId).length === PEOPLE - 1
            ? null
            : `${b?.filter?.((n: any) => n.managerId).length} people with a manager, not ${PEOPLE - 1}`,
      ],
      [
        getAttendanceTodayRoute,
        '/attendance/today',
        (b) =>
          b?.currentlyPresentCount === stillPresent &&
          b.employees?.filter((e: any) => e.status !== 'NOT_CHECKED_IN').length === present.length
            ? null
            : `${b?.currentlyPresentCount} present, ${b?.employees?.length} employees`,
      ],
    ];
    for (const [route, path, check] of reads) {
      const deadlineMs = routeSettings(route).timeoutSeconds * 1000;
      const first = await call(runtime.baseUrl, path, token);
      // The same read again in the environment the first one started: what it costs without the cold start.
      const warm = await call(runtime.baseUrl, path, token);
      const problem =
        first.status !== 200
          ? `answered ${first.status}`
          : first.ms > deadlineMs
            ? 'took longer than the deadline'
            : check(first.body);
      if (problem) ok = false;
      console.log(
        `  GET ${path.padEnd(18)} ${String(first.status).padStart(4)} ${(first.ms / 1000).toFixed(2).padStart(6)} s first (cold start included), ${(warm.ms / 1000).toFixed(2).padStart(6)} s warm (${warm.status}); deadline ${deadlineMs / 1000} s  ${problem ? `FAIL: ${problem}` : 'ok'}`,
      );
    }

    // 4. An announcement to everybody while the day's birthdays fan out, and 20 replies meanwhile.
    const t1 = performance.now();
    const announcement = await json(
      runtime.baseUrl,
      'POST',
      '/posts',
      { content: 'To everybody: the office is closed on Friday.', isAnnouncement: true },
      token,
    );
    if (announcement.status !== 201) throw new Error(`announcement answered ${announcement.status}`);
    const delays: number[] = [];
    for (let i = 0; i < REPLIES; i++) delays.push(await replyDelay(`reply ${i}`));
    delays.sort((a, b) => a - b);
    const p99 = delays[Math.min(delays.length - 1, Math.ceil(0.99 * delays.length) - 1)];
    const itemOf = async (key: Record<string, unknown>) =>
      (await doc.send(new GetCommand({ TableName: table, Key: key }))).Item;
    const dayKey = BirthdayDay.key({ date: today });
    const noticeKey = AnnouncementNotice.key({ postId: announcement.body.id });
    const stillRunning = [!(await itemOf(dayKey))?.doneAt, !(await itemOf(noticeKey))?.doneAt];
    const repliesOk = p99 <= REPLY_BUDGET_MS;
    if (!repliesOk) ok = false;
    console.log(
      `  replies during the fan-outs: p99 ${(p99 / 1000).toFixed(2)} s over ${REPLIES} (median ${(delays[REPLIES >> 1] / 1000).toFixed(2)} s); budget ${REPLY_BUDGET_MS / 1000} s; birthday day ${stillRunning[0] ? 'still' : 'no longer'} running, announcement ${stillRunning[1] ? 'still' : 'no longer'} running after the last  ${repliesOk ? 'ok' : 'FAIL'}`,
    );

    // 5. The fan-outs done, then every person's notifications counted.
    let day: Record<string, any> | undefined;
    let notice: Record<string, any> | undefined;
    while (performance.now() - t1 < FAN_OUT_LIMIT_MS) {
      [day, notice] = [await itemOf(dayKey), await itemOf(noticeKey)];
      if (day?.doneAt && notice?.doneAt) break;
      await sleep(2000);
    }
    const fanOutSeconds = (performance.now() - t1) / 1000;
    if (!day?.doneAt || !notice?.doneAt) {
      ok = false;
      console.log(
        `  fan-out: not done after ${fanOutSeconds.toFixed(0)} s (birthday day ${day?.doneAt ? 'done' : 'not done'}, announcement ${notice?.doneAt ? 'done' : 'not done'})`,
      );
    } else {
      console.log(
        `  fan-out: the birthday day and the announcement done ${fanOutSeconds.toFixed(1)} s after the announcement`,
      );
    }

    // Counted with a Scan (a bench may; no request path does), opened as the list opens them: each person's birthday notifications, and the announcement's.
    const birthdayIds = [...birthdayIndexes].map((i) => ids[i]);
    const counts = new Map<string, number>();
    const previews = new Map<string, string>();
    let announced = 0;
    for (const { item, c: n } of await openedNotifications(raw, table)) {
      if (n?.kind === 'announcement' && n.postId === announcement.body.id) announced++;
      if (n?.kind !== 'birthday') continue;
      counts.set(item.recipientId, (counts.get(item.recipientId) ?? 0) + 1);
      previews.set(item.recipientId, n.preview);
    }
    const names = new Map(people.map((p: any) => [p.id as string, p.name as string]));
    const expectedPreview = (recipientId: string) =>
      birthdayPreview(
        birthdayIds
          .filter((id) => id !== recipientId)
          .map((id) => ({ id, name: names.get(id)! }))
          .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)),
      ).preview;
    let missing = 0;
    let twice = 0;
    let wrong = 0;
    for (const recipient of ids) {
      const n = counts.get(recipient) ?? 0;
      if (n === 0) missing++;
      if (n > 1) twice++;
      if (n === 1 && previews.get(recipient) !== expectedPreview(recipient)) wrong++;
    }
    const notificationsOk = missing === 0 && twice === 0 && wrong === 0;
    if (!notificationsOk) ok = false;
    console.log(
      `  birthday notifications: ${PEOPLE} people checked; missing ${missing}, more than one ${twice}, not naming the day's other birthday people ${wrong}  ${notificationsOk ? 'ok' : 'FAIL'}`,
    );
    // Writes. The birthday day: the claims (a put and its done mark each), the day (created once, once
    // more per later round), each page's progress, and per notification its item and its unread counter.
    const birthdayNotes = [...counts.values()].reduce((a, b) => a + b, 0);
    const dayWrites = 2 * BIRTHDAYS + (day?.round ?? 1) + (day?.step ?? 0) + 2 * birthdayNotes;
    const dayOk = birthdayNotes <= PEOPLE + 3 + BIRTHDAYS && (day?.round ?? 1) === 1;
    if (!dayOk) ok = false;
    console.log(
      `  writes per birthday day: ${birthdayNotes} notifications (${(birthdayNotes / (PEOPLE + 3)).toFixed(3)} per person; budget 1 + a small constant) in ${day?.step} pages, ${day?.round} round(s): ${dayWrites} item writes  ${dayOk ? 'ok' : 'FAIL'}`,
    );
    // The announcement: its notice (created once, each page's progress) and per notification its item and counter.
    const announcementWrites = 1 + (notice?.step ?? 0) + 2 * announced;
    const announcementOk = announced === PEOPLE + 2 && (notice?.step ?? 0) <= Math.ceil((PEOPLE + 2) / PAGE) + 1;
    if (!announcementOk) ok = false;
    console.log(
      `  writes per announcement: ${announced} notifications (one per person but the author) in ${notice?.step} pages of ${PAGE}: ${announcementWrites} item writes (${(announcementWrites / (PEOPLE + 2)).toFixed(2)} per person)  ${announcementOk ? 'ok' : 'FAIL'}`,
    );
    console.log(`\nthe whole section took ${((performance.now() - started) / 1000).toFixed(0)} s`);
    console.log(
      `bounds: each read 200 within its function's deadline at ${PEOPLE} people; replies told within ${REPLY_BUDGET_MS / 1000} s (p99) while company-wide fan-outs run; one birthday notification per person per day; an announcement one notification per person.`,
    );
    return ok;
  } finally {
    await runtime?.stop();
    doc.destroy();
    await dynamo.stop();
    rmSync(dataDir, { recursive: true, force: true });
    restore();
  }
}
