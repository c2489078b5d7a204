/**
 * Company at 5,000 people (issue: no request does work that grows with the company). On a whole
 * local runtime (DynamoDB Local, the gateway with its integration timeout, every function in its own
 * worker cut off at its deadline, the stream consumers), with 5,000 active people seeded straight
 * into the table through the entity declarations (a management tree, teams, today's attendance),
 * five of them celebrating today in COMPANY_TIMEZONE:
 * - the first GET /birthdays/today (the one that claims the five announcements), GET /admin/members,
 *   GET /org-chart and GET /attendance/today, as a super admin: each must answer 200 within its
 *   function's deadline (the route table's timeout);
 * - after the birthday fan-out consumer has sent the announcements: every one of the 5,000 people
 *   holds exactly one birthday notification per birthday person but themselves.
 * The seeding happens before the runtime starts, so the stream poller (which starts at the stream's
 * end) does not replay it through the change feed: the section measures the requests and the
 * fan-out, not the loading. The whole lists' documents are then built once, as the refresh does.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { ensureTable, startDynamoDbLocal } from '../../infra/local/dynamodb.ts';
import { freePort, prepareEnvironment } from '../../infra/local/runtime.ts';
import { FIRST_NAMES, LAST_NAMES } from '../../infra/seed/company.ts';
import { routeSettings } from '../../shared/api/function-settings.ts';
import type { AnyRoute } from '../../shared/api/route-def.ts';
import { getAttendanceTodayRoute } from '../../shared/api/routes/attendance.ts';
import { listTodaysBirthdaysRoute } from '../../shared/api/routes/birthdays.ts';
import { listMembersRoute } from '../../shared/api/routes/members.ts';
import { getOrgChartRoute } from '../../shared/api/routes/profiles.ts';
import type { Item } from '../../shared/db/table.ts';
import { Notification } from '../../shared/notifications/entities.ts';
import { notificationContent } from '../../shared/notifications/notifications.ts';
import {
  batchWrite,
  benchTeamItems,
  directoryMigrationsDone,
  isolatedSection,
  rnd,
  startSectionRuntime,
} from './support.ts';

const PEOPLE = 5_000;
const BIRTHDAYS = 5;
/** Direct reports per manager: a tree five levels deep at 5,000 people. */
const SPAN = 8;
const TEAM_SIZE = 100;
/** Share of the company checked in today (a tenth of them already checked out). */
const PRESENT_SHARE = 0.6;
/** How long the fan-out of the five announcements may take before the section gives up. */
const FAN_OUT_LIMIT_MS = 15 * 60_000;

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
  const dataDir = mkdtempSync(join(tmpdir(), 'workplace-bench-company-'));
  const restore = isolatedSection();
  process.env.LOG_LEVEL ??= 'ERROR';
  // In memory: seeding 5,000 people with their indexes is several times quicker than on disk.
  const dynamo = await startDynamoDbLocal(null, await freePort());
  process.env.AWS_ENDPOINT_URL_DYNAMODB = dynamo.endpoint;
  prepareEnvironment(dataDir);
  // Loaded once the environment is set (COMPANY_TIMEZONE, TABLE_NAME).
  const { projectionItems } = await import('../../shared/people/derived-from-person.ts');
  const { blankProfile } = await import('../../shared/people/users.ts');
  const { AttendanceRecord, PresentCounter } = await import('../../shared/hr/entities.ts');
  const { BirthdayAnnouncement } = await import('../../shared/calendar/entities.ts');
  const { companyDate } = await import('../../shared/calendar/time.ts');
  const table = process.env.TABLE_NAME!;
  const raw = new DynamoDBClient({ endpoint: dynamo.endpoint, region: process.env.AWS_REGION });
  const doc = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });
  let runtime: Awaited<ReturnType<typeof startSectionRuntime>> | undefined;
  try {
    await ensureTable(raw, table);
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
    const items = [...teamItems, ...projectionItems(people), ...directoryMigrationsDone(now), ...attendance, counter];
    await batchWrite(doc, table, items);
    console.log(
      `company: seeded ${PEOPLE} people (${teams.length} teams, ${present.length} checked in today, ${BIRTHDAYS} birthdays on ${today}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    // 2. The runtime on that table: routes, consumers; no schedules (the birthday sweep would claim first).
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
    // whole lists' documents are built as the refresh schedule builds them (shared/documents/consumer.ts),
    // so the reads below measure the documents, not the first-deployment path that reads the table whole.
    const built = performance.now();
    const { refreshLists } = await import('../../shared/documents/consumer.ts');
    const { readDocument } = await import('../../shared/documents/whole-list.ts');
    await refreshLists();
    // A fold of the admin's own creation may hold the roster's lease meanwhile (it builds it whole too).
    for (let i = 0; !(await readDocument('roster')) && i < 300; i++) await new Promise((r) => setTimeout(r, 100));
    console.log(`company: whole lists' documents built in ${((performance.now() - built) / 1000).toFixed(1)} s`);

    // 3. The four reads. The first GET /birthdays/today claims the five announcements.
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
        (b) => (Array.isArray(b) && b.length === PEOPLE + 1 ? null : `${b?.length} members, not ${PEOPLE + 1}`),
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

    // 4. The fan-out: every announcement done, then every person's birthday notifications counted.
    const birthdayIds = [...birthdayIndexes].map((i) => ids[i]);
    const t1 = performance.now();
    let pending = birthdayIds;
    while (pending.length && performance.now() - t1 < FAN_OUT_LIMIT_MS) {
      const states = await Promise.all(
        pending.map(
          async (id) =>
            (
              await doc.send(
                new GetCommand({ TableName: table, Key: BirthdayAnnouncement.key({ date: today, userId: id }) }),
              )
            ).Item,
        ),
      );
      pending = pending.filter((_, k) => !states[k]?.doneAt);
      if (pending.length) await sleep(2000);
    }
    const fanOutSeconds = (performance.now() - t1) / 1000;
    if (pending.length) {
      ok = false;
      console.log(
        `  fan-out: ${pending.length} of ${BIRTHDAYS} announcements not done after ${fanOutSeconds.toFixed(0)} s`,
      );
    } else {
      console.log(`  fan-out: ${BIRTHDAYS} announcements done ${fanOutSeconds.toFixed(1)} s after the first read`);
    }

    // Counted with a Scan (a bench may; no request path does): notifications per (recipient, birthday person).
    const counts = new Map<string, number>();
    let lastKey: Record<string, unknown> | undefined;
    do {
      const page = await doc.send(
        new ScanCommand({
          TableName: table,
          // Kind and actor are sealed (shared/notifications/notifications.ts): opened here, as the list does.
          FilterExpression: 'entity = :n',
          ExpressionAttributeValues: { ':n': 'Notification' },
          ExclusiveStartKey: lastKey,
        }),
      );
      for (const item of (page.Items ?? []).filter(Notification.is)) {
        const n = notificationContent(item);
        if (n?.kind !== 'birthday') continue;
        const key = `${item.recipientId}|${n.actorId}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      lastKey = page.LastEvaluatedKey;
    } while (lastKey);
    let missing = 0;
    let twice = 0;
    for (const recipient of ids)
      for (const celebrant of birthdayIds) {
        if (recipient === celebrant) continue;
        const n = counts.get(`${recipient}|${celebrant}`) ?? 0;
        if (n === 0) missing++;
        if (n > 1) twice++;
      }
    const ownAnnouncements = birthdayIds.filter((id) => counts.has(`${id}|${id}`)).length;
    const expected = PEOPLE * BIRTHDAYS - BIRTHDAYS;
    const notificationsOk = missing === 0 && twice === 0 && ownAnnouncements === 0;
    if (!notificationsOk) ok = false;
    console.log(
      `  notifications: ${expected} (person, birthday) pairs checked; missing ${missing}, more than once ${twice}, told of their own birthday ${ownAnnouncements}  ${notificationsOk ? 'ok' : 'FAIL'}`,
    );
    console.log(
      `\nbounds: each read 200 within its function's deadline at ${PEOPLE} people; every person told of each other birthday exactly once.`,
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
