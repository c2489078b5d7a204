/**
 * Company at 5,000 and at 50,000 people with a year of data (issue 34, item 5): every GET route of the
 * route table, called the same way at both sizes on a whole local runtime, with DynamoDB metered from
 * outside (a counting proxy in front of DynamoDB Local: read calls and the bytes DynamoDB answered) and
 * the answer's size on the wire (gzip accepted, as browsers and the mobile client do).
 *
 * The company is seeded straight into the table, deterministically by a person's index, first people
 * [0, 5,000) then the whole [0, 50,000) (the first 5,000 are written again with their new report
 * counts): a manager tree of span 8 (six levels at 50,000), teams of 100, today's attendance, and a
 * year of data per person — posts (two in five people), a meeting each with three people (from 300 days
 * ago to 65 days ahead), a leave request each, notifications, reactions
 * of the last month and votes on a poll — so the data grows with the company ×10 like the headcount.
 *
 * Budgets (the issue's): per route, read calls and bytes at 50,000 at most 1.5× those at 5,000 (with a
 * floor of 2 calls and 8 KB, below which a difference is noise: an item of a person is a few hundred
 * bytes); no answer above 1 MB unless the route is a documented whole list, none above 6 MB.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ensureTable, startDynamoDbLocal } from '../../infra/local/dynamodb.ts';
import { freePort, prepareEnvironment } from '../../infra/local/runtime.ts';
import { FIRST_NAMES, LAST_NAMES } from '../../infra/seed/company.ts';
import { API_PREFIX } from '../../shared/api/route-def.ts';
import { MEETING_TYPES } from '../../shared/calendar/meetings/types.ts';
import type { Item } from '../../shared/db/table.ts';
import { setS3Client } from '../../shared/storage/client.ts';
import { DynamoMeterProxy, type Reading } from './dynamo-meter-proxy.ts';
import {
  batchWrite,
  benchTeamItems,
  isolatedSection,
  json,
  migrationsDoneItems,
  startSectionRuntime,
} from './support.ts';

/** The issue's sizes; `SCALE_BENCH_SIZES=300,3000` tries the section quickly (its budgets then prove nothing). */
const SIZES = (process.env.SCALE_BENCH_SIZES?.split(',').map(Number) ?? [5_000, 50_000]) as [number, number];
const SPAN = 8;
const TEAM_SIZE = 100;
const DAY = 86_400_000;
/** Budgets: the issue's. */
const FLAT = 1.5;
const FLOOR = { calls: 2, bytes: 8 * 1024 };
const MB = 1024 * 1024;
const PAGE_ANSWER_MAX = 1 * MB;
const ANSWER_MAX = 6 * MB;
/** Whole lists the specification answers whole (decisions §4): documented, may pass 1 MB (never 6 MB). */
const WHOLE_LISTS = new Set([
  '/admin/members',
  '/org-chart',
  '/attendance/today',
  '/attendance/employees',
  '/leave/context',
  '/openapi.json',
  '/openapi.yaml',
]);

const MEETING_TYPE = MEETING_TYPES[0];
const TITLES = ['Engineer', 'Designer', 'Analyst', 'Manager', 'Writer', 'Recruiter'];
const LOCATIONS = ['Lisbon', 'Porto', 'Berlin', 'Madrid', 'Paris', 'London', 'Remote'];
const WORDS = 'build ship design review plan test deploy measure write learn teach debug mentor lead scale'.split(' ');

/** A number from a person's index and a purpose: the same at both sizes. */
const det = (i: number, what: string, n: number) =>
  createHash('sha1').update(`${what}:${i}`).digest().readUInt32BE() % n;
const detPick = <T>(list: readonly T[], i: number, what: string) => list[det(i, what, list.length)];
/** A stable uuid-shaped id for a person's index. */
const idOf = (i: number) => {
  const h = createHash('sha1').update(`person:${i}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};
const teamIdOf = (t: number) => idOf(1_000_000 + t);

interface Case {
  path: string;
  who: 'admin' | 'member';
}

export async function scaleBench(): Promise<boolean> {
  const dataDir = mkdtempSync(join(tmpdir(), 'workplace-bench-scale-'));
  const restore = isolatedSection();
  process.env.LOG_LEVEL ??= 'ERROR';
  const dynamo = await startDynamoDbLocal(null, await freePort());
  const proxy = new DynamoMeterProxy(dynamo.endpoint);
  await proxy.start(await freePort());
  process.env.AWS_ENDPOINT_URL_DYNAMODB = proxy.endpoint;
  prepareEnvironment(dataDir);
  const { projectionItems } = await import('../../shared/people/derived-from-person.ts');
  const { blankProfile } = await import('../../shared/people/users.ts');
  const { AttendanceRecord, PresentCounter, LeaveRequest } = await import('../../shared/hr/entities.ts');
  const { Meeting } = await import('../../shared/calendar/meetings/entities.ts');
  const { seatWrites } = await import('../../shared/calendar/meetings/store.ts');
  const { companyDate } = await import('../../shared/util/time.ts');
  const { newSortableId } = await import('../../shared/db/ids.ts');
  const { Post } = await import('../../shared/feed/entities.ts');
  const { newPostItems, createPost } = await import('../../shared/feed/posts.ts');
  const { setReaction } = await import('../../shared/feed/reactions.ts');
  const { vote } = await import('../../shared/feed/polls.ts');
  const { notifyMany } = await import('../../shared/notifications/notify-many.ts');
  const { inPool } = await import('../../shared/util/in-pool.ts');
  const table = process.env.TABLE_NAME!;
  const raw = new DynamoDBClient({ endpoint: dynamo.endpoint, region: process.env.AWS_REGION });
  const doc = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });
  let runtime: Awaited<ReturnType<typeof startSectionRuntime>> | undefined;
  const admin = { email: 'scale-admin@example.com', password: 'admin-password-1' };
  const now = new Date();
  const today = companyDate(now);
  const nowIso = now.toISOString();
  const itemsOf = (writes: { Put?: { Item: Item } }[]) => writes.flatMap((w) => (w.Put ? [w.Put.Item] : []));

  const person = (i: number, n: number) => {
    const firstReport = SPAN * i + 1;
    return {
      ...blankProfile(),
      id: idOf(i),
      email: `scale-${i}@example.com`,
      name: `${detPick(FIRST_NAMES, i, 'first')} ${detPick(LAST_NAMES, i, 'last')} ${i}`,
      role: 'member',
      status: 'active',
      title: detPick(TITLES, i, 'title'),
      location: detPick(LOCATIONS, i, 'location'),
      bio: Array.from({ length: 12 }, (_, k) => detPick(WORDS, i, `bio${k}`)).join(' '),
      skills: [...new Set([0, 1, 2].map((k) => detPick(WORDS, i, `skill${k}`)))],
      teamId: teamIdOf(Math.floor(i / TEAM_SIZE)),
      managerId: i === 0 ? null : idOf(Math.floor((i - 1) / SPAN)),
      reportCount: Math.max(0, Math.min(n, firstReport + SPAN) - firstReport),
      postCount: det(i, 'posts', 5) < 2 ? 1 : 0,
      dateOfBirth: `19${70 + det(i, 'born', 30)}-${String(1 + det(i, 'month', 12)).padStart(2, '0')}-${String(1 + det(i, 'day', 28)).padStart(2, '0')}`,
      joinedAt: new Date(Date.UTC(2015, 0, 1) + i * 3_600_000).toISOString(),
    } as any;
  };
  /** A year of a person's data, straight items: a post for two in five, a meeting and a leave request each. */
  const yearOf = (i: number, n: number): Item[] => {
    const items: Item[] = [];
    const author = idOf(i);
    if (det(i, 'posts', 5) < 2) {
      const at = new Date(now.getTime() - (1 + det(i, 'postAt', 364)) * DAY - det(i, 'postMs', DAY));
      const post = Post.item({
        id: newSortableId(at),
        authorId: author,
        content: `${Array.from({ length: 30 }, (_, k) => detPick(WORDS, i, `post${k}`)).join(' ')} #${detPick(WORDS, i, 'tag')}`,
        tags: [detPick(WORDS, i, 'tag')],
        images: [],
        videos: [],
        documents: [],
        poll: null,
        recognition: null,
        isAnnouncement: false,
        hidden: false,
        sharedPostId: null,
        mentionedIds: [],
        createdAt: at.toISOString(),
        updatedAt: at.toISOString(),
        editedAt: null,
        actorId: author,
        rev: 0,
      });
      items.push(...newPostItems(post));
    }
    if (n > 4) {
      const start = new Date(now.getTime() + (det(i, 'meetAt', 365) - 300) * DAY + det(i, 'meetH', 8) * 3_600_000);
      const participants = [1, 2, 3].map((k) => idOf((i + k) % n));
      const meeting = Meeting.item({
        id: newSortableId(new Date(start.getTime() - 7 * DAY)),
        topic: `Sync ${i}`,
        description: Array.from({ length: 40 }, (_, k) => detPick(WORDS, i, `desc${k}`)).join(' '),
        startsAt: start.toISOString(),
        endsAt: new Date(start.getTime() + 3_600_000).toISOString(),
        startUtc: start.toISOString(),
        endUtc: new Date(start.getTime() + 3_600_000).toISOString(),
        type: MEETING_TYPE,
        meetLink: 'https://meet.example.com/x',
        recordingLink: null,
        transcriptLink: null,
        organizerId: author,
        participantIds: participants,
        externalEmails: [],
        cancelledAt: null,
        createdAt: nowIso,
        updatedAt: nowIso,
        version: 1,
        actorId: author,
      });
      items.push(meeting, ...itemsOf(seatWrites(meeting, []) as never));
    }
    if (i > 0) {
      const from = new Date(now.getTime() - det(i, 'leaveAt', 360) * DAY);
      const date = (d: Date) => d.toISOString().slice(0, 10);
      items.push(
        LeaveRequest.item({
          id: newSortableId(new Date(from.getTime() - 14 * DAY)),
          employeeId: author,
          leaveType: 'vacation',
          fromDate: date(from),
          toDate: date(new Date(from.getTime() + 3 * DAY)),
          reason: 'Time off',
          selectedManagerId: idOf(Math.floor((i - 1) / SPAN)),
          status: 'APPROVED',
          processedById: idOf(Math.floor((i - 1) / SPAN)),
          processedAt: nowIso,
          processComment: null,
          createdAt: new Date(from.getTime() - 14 * DAY).toISOString(),
          actorId: author,
        }),
      );
    }
    if (det(i, 'present', 10) < 6)
      items.push(
        AttendanceRecord.item({
          employeeId: author,
          date: today,
          checkIn: nowIso,
          checkOut: det(i, 'out', 10) === 0 ? nowIso : null,
          actorId: author,
        }),
      );
    return items;
  };

  /** The company at `n` people: everybody (again), and the year of the people from `from`. */
  const seed = async (from: number, n: number) => {
    const t0 = performance.now();
    const people = Array.from({ length: n }, (_, i) => person(i, n));
    const teams = Array.from({ length: Math.ceil(n / TEAM_SIZE) }, (_, t) => teamIdOf(t));
    const present = people.filter((_, i) => det(i, 'present', 10) < 6 && det(i, 'out', 10) !== 0).length;
    const year = Array.from({ length: n - from }, (_, k) => yearOf(from + k, n)).flat();
    await batchWrite(doc, table, [
      ...benchTeamItems(teams, nowIso, (t) => Math.min(TEAM_SIZE, n - t * TEAM_SIZE)),
      ...projectionItems(people),
      ...year,
      { ...PresentCounter.key({ date: today }), entity: 'PresentCounter', present } as Item,
    ]);
    // Through the domain (their counters, scores and notifications move as they do on requests): two
    // notifications each, a reaction of the last month for one in ten, a vote on the poll for one in ten.
    const viewers = (i: number) => ({ userId: idOf(i), role: 'member' as const });
    const indexes = Array.from({ length: n - from }, (_, k) => from + k);
    await inPool(
      Array.from({ length: Math.ceil(indexes.length / 40) }, (_, b) => indexes.slice(b * 40, b * 40 + 40)),
      4,
      (batch) =>
        notifyMany(
          batch.flatMap((i) =>
            [1, 2].map((k) => ({
              recipientId: idOf(i),
              kind: 'reaction' as const,
              actorId: idOf((i + k) % n),
              preview: 'liked your post',
            })),
          ),
        ),
    );
    const recent = await recentPostIds();
    await inPool(
      indexes.filter((i) => i % 10 === 0),
      4,
      async (i) => void (await setReaction(viewers(i), recent[det(i, 'react', recent.length)], 'like')),
    );
    await inPool(
      indexes.filter((i) => i % 10 === 1),
      4,
      async (i) => void (await vote(viewers(i), pollId!, pollOptions![det(i, 'vote', pollOptions!.length)])),
    );
    const seconds = (performance.now() - t0) / 1000;
    console.log(
      `scale: ${n} people (${teams.length} teams), a year of data for people ${from}..${n - 1}: ${year.length} items straight, ${(n - from) * 2} notifications, ${Math.ceil((n - from) / 10)} reactions and votes through the domain, in ${seconds.toFixed(0)} s`,
    );
    return seconds;
  };

  // The poll every tenth person votes on, and the posts of the last month people react to.
  let pollId: string | undefined;
  let pollOptions: string[] | undefined;
  const recentIds: string[] = [];
  const recentPostIds = async () => {
    if (recentIds.length) return recentIds;
    for (let k = 0; k < 20; k++) {
      const p = await createPost({ userId: idOf(k + 1), role: 'member' }, { content: `Recent news ${k}` });
      recentIds.push(p.id);
    }
    return recentIds;
  };

  const results = new Map<string, (Reading & { status: number; ms: number; wire: number; size: number })[]>();
  const measure = async (baseUrl: string, cases: Case[], tokens: Record<'admin' | 'member', string>) => {
    for (const c of cases) {
      await proxy.quiet();
      // Twice: the first warms the function (its cold start is another bench's); the second is measured.
      await call(baseUrl, c.path, tokens[c.who]);
      await proxy.quiet(500);
      proxy.reset();
      const r = await call(baseUrl, c.path, tokens[c.who]);
      const key = `${c.who} GET ${c.path}`;
      results.set(key, [...(results.get(key) ?? []), { ...proxy.take(), ...r }]);
    }
  };

  try {
    await ensureTable(raw, table);
    const seedSeconds: number[] = [];
    let tokens: Record<'admin' | 'member', string> | undefined;
    let cases: Case[] = [];
    for (const [round, n] of SIZES.entries()) {
      if (round === 0) {
        // The poll, before the people who vote on it: person 0's, through the domain.
        // The directory's current form (rows and terms, no shards): its migrations recorded done.
        await batchWrite(doc, table, [...projectionItems([person(0, 1)]), ...(await migrationsDoneItems(nowIso))]);
        const poll = await createPost(
          { userId: idOf(0), role: 'member' },
          {
            content: 'Where should the offsite be?',
            poll: {
              question: 'Where?',
              options: ['Lisbon', 'Berlin', 'Remote'],
              closesAt: new Date(now.getTime() + 30 * DAY).toISOString(),
            },
          },
        );
        pollId = poll.id;
        pollOptions = poll.poll!.options.map((o: { id: string }) => o.id);
      }
      seedSeconds.push(await seed(round === 0 ? 0 : SIZES[round - 1], n));
      // Its own S3 emulator each time (on the same data directory): the previous one stopped with its runtime.
      delete process.env.AWS_ENDPOINT_URL_S3;
      runtime = await startSectionRuntime(dataDir, admin);
      const baseUrl = runtime.baseUrl;
      const adminToken = (await signIn(baseUrl, admin.email, admin.password))!;
      if (!tokens) {
        // The member measured: reports to person 1 (a manager with reports), follows 20 people.
        const created = await json(
          baseUrl,
          'POST',
          '/admin/members',
          {
            name: 'Scale Member',
            email: 'scale-member@example.com',
            password: 'member-password-1',
            managerId: idOf(1),
          },
          adminToken,
        );
        if (created.status !== 201) throw new Error(`member: ${created.status} ${JSON.stringify(created.body)}`);
        tokens = {
          admin: adminToken,
          member: (await signIn(baseUrl, 'scale-member@example.com', 'member-password-1'))!,
        };
        for (let k = 2; k < 22; k++) await json(baseUrl, 'PUT', `/people/${idOf(k)}/follow`, undefined, tokens.member);
        cases = await casesFor(baseUrl, tokens, created.body.id);
      } else tokens.admin = adminToken;
      // Seeded straight, so no change reached the background: what its schedules build is built here
      // (the whole lists' documents, the leaderboard's top lists), on this runtime's S3 emulator.
      setS3Client(undefined);
      const { refreshLists } = await import('../../shared/whole-lists/consumer.ts');
      const { buildTopLists } = await import('../../shared/feed/leaderboard.ts');
      await refreshLists();
      await buildTopLists();
      await proxy.quiet(3000, 300_000);
      await measure(baseUrl, cases, tokens);
      await runtime.stop();
      runtime = undefined;
    }
    return report(results, seedSeconds);
  } finally {
    await runtime?.stop();
    doc.destroy();
    await proxy.stop();
    await dynamo.stop();
    rmSync(dataDir, { recursive: true, force: true });
    restore();
  }

  async function casesFor(baseUrl: string, tokens: Record<'admin' | 'member', string>, memberId: string) {
    const { routes } = await import('../../shared/api/routes/index.ts');
    const grievance = await json(
      baseUrl,
      'POST',
      '/grievances',
      { subject: 'The lights', description: 'They flicker in room 2.', category: 'facilities' },
      tokens.member,
    );
    const comment = await json(
      baseUrl,
      'POST',
      `/posts/${recentIds[0]}/comments`,
      { content: 'Agreed' },
      tokens.member,
    );
    const meetings = await json(baseUrl, 'GET', '/meetings?limit=1', undefined, tokens.admin);
    const values: Record<string, string> = {
      grievanceId: grievance.body?.id ?? 'none',
      userId: idOf(1),
      meetingId: (Array.isArray(meetings.body) ? meetings.body[0]?.id : meetings.body?.items?.[0]?.id) ?? 'none',
      postId: pollId!,
      commentId: comment.body?.id ?? 'none',
      exportId: 'none',
      erasureId: 'none',
      asset: 'none',
    };
    const skipped = new Set(['/realtime/stream', '/files/avatars/{key}', '/files/posts/{key}', '/docs/{asset}']);
    const out: Case[] = [];
    for (const r of routes as any[]) {
      if (r.method !== 'GET') continue;
      const path = r.path.slice(API_PREFIX.length) as string;
      if (skipped.has(path)) continue;
      const filled = path.replace(/\{(\w+)\}/g, (_, p: string) => values[p] ?? 'none');
      out.push({ path: filled, who: r.auth === 'super_admin' ? 'admin' : 'member' });
    }
    void memberId;
    // The variants the issue names: lists of everything ever, searches, rankings, the following feed.
    out.push(
      { path: '/meetings', who: 'admin' },
      { path: '/leave/requests?scope=history', who: 'admin' },
      { path: '/people?q=lead', who: 'member' },
      { path: '/people?q=an', who: 'member' },
      { path: '/people?skill=debug', who: 'member' },
      { path: `/people?team=${teamIdOf(3)}`, who: 'member' },
      { path: '/people?sort=posts', who: 'member' },
      { path: '/people/leaderboard?period=week', who: 'member' },
      { path: '/people/leaderboard?period=month', who: 'member' },
      { path: '/posts?following=true', who: 'member' },
      { path: `/posts/${pollId}/poll/voters`, who: 'admin' },
      { path: '/attendance/employees', who: 'admin' },
      { path: '/attendance/today', who: 'admin' },
      { path: '/org-chart', who: 'admin' },
    );
    return out;
  }
}

async function signIn(baseUrl: string, email: string, password: string) {
  const res = await fetch(`${baseUrl}/api/v1/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return res.headers.get('set-auth-token');
}

/** One GET with gzip accepted: status, time, bytes on the wire and decoded. */
function call(baseUrl: string, path: string, token: string) {
  const url = new URL(`${baseUrl}/api/v1${path}`);
  const started = performance.now();
  return new Promise<{ status: number; ms: number; wire: number; size: number }>((resolve, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' } }, (res) => {
      let wire = 0;
      res.on('data', (c: Buffer) => (wire += c.length));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          ms: performance.now() - started,
          wire,
          size: Number(res.headers['x-uncompressed-length'] ?? wire),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

function report(
  results: Map<string, (Reading & { status: number; ms: number; wire: number })[]>,
  seedSeconds: number[],
) {
  let ok = true;
  const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;
  console.log(
    `  ${'route'.padEnd(58)} ${'calls'.padStart(11)} ${'DynamoDB bytes'.padStart(22)} ${'answer (wire)'.padStart(24)} ${'ms'.padStart(13)}`,
  );
  for (const [key, [small, large]] of results) {
    if (!small || !large) continue;
    const path = key.replace(/^\w+ GET /, '').split('?')[0];
    const whole = WHOLE_LISTS.has(path);
    const problems: string[] = [];
    if (Math.max(large.calls, FLOOR.calls) > FLAT * Math.max(small.calls, FLOOR.calls)) problems.push('calls grew');
    if (Math.max(large.bytes, FLOOR.bytes) > FLAT * Math.max(small.bytes, FLOOR.bytes)) problems.push('bytes grew');
    if (large.wire > ANSWER_MAX) problems.push('answer over 6 MB');
    else if (!whole && large.wire > PAGE_ANSWER_MAX) problems.push('answer over 1 MB');
    if (large.status >= 500 || small.status >= 500) problems.push(`answered ${small.status}/${large.status}`);
    if (problems.length) ok = false;
    console.log(
      `  ${key.slice(0, 58).padEnd(58)} ${`${small.calls}→${large.calls}`.padStart(11)} ${`${kb(small.bytes)}→${kb(large.bytes)}`.padStart(22)} ${`${kb(small.wire)}→${kb(large.wire)}`.padStart(24)} ${`${small.ms.toFixed(0)}→${large.ms.toFixed(0)}`.padStart(13)} ${small.status}/${large.status}${whole ? ' whole list' : ''}  ${problems.length ? `FAIL: ${problems.join(', ')}` : 'ok'}`,
    );
  }
  console.log(
    `\nseeding took ${seedSeconds.map((s) => `${s.toFixed(0)} s`).join(' and ')} (${SIZES.join(' then ')} people). Bounds: read calls and bytes at ${SIZES[1]} at most ${FLAT}× those at ${SIZES[0]} (floors ${FLOOR.calls} calls, ${kb(FLOOR.bytes)}); answers ≤ 1 MB (documented whole lists ≤ 6 MB).`,
  );
  return ok;
}
