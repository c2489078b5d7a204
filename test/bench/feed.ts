/**
 * Feed bench (`npm run bench`): DynamoDB requests per feed page (GET /posts with each filter, as the
 * handler builds it: list + views) and per leaderboard, at 10 and at 10,000 posts, on DynamoDB Local
 * with a counting client. Fails when a page costs more requests at 10,000 posts than at 10, or more
 * than the bound docs/data-model.md (Feed) states. Posts, shares, polls, recognitions, bookmarks,
 * reactions and follows are written with the feed's own item builders through BatchWrite.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDynamoDbLocal } from '../../infra/local/dynamodb.ts';
import { freePort } from '../../infra/local/runtime.ts';
import { setDbClient } from '../../shared/db/client.ts';
import { newSortableId } from '../../shared/db/ids.ts';
import type { Item } from '../../shared/db/table.ts';
import {
  Bookmark,
  FeedScore,
  FeedScoreDay,
  Follow,
  Post,
  type PostItem,
  PostReaction,
} from '../../shared/feed/entities.ts';
import { buildTopLists, contributors, leaderboard, REQUEST_CHANGES } from '../../shared/feed/leaderboard.ts';
import { listPosts, type PostFilters } from '../../shared/feed/list-posts.ts';
import type { Viewer } from '../../shared/feed/people.ts';
import { postLists } from '../../shared/feed/post-lists.ts';
import { newPostItems } from '../../shared/feed/posts.ts';
import { User } from '../../shared/people/entities.ts';
import { blankProfile } from '../../shared/people/users.ts';
import { batchWrite, benchEnv, createTable, Meter, meteredClient, rnd } from './support.ts';

/** The larger size defaults to 1,000 posts (seeding 10,000 through DynamoDB Local takes minutes): FEED_BENCH_POSTS=10000. */
const SIZES = [10, Number(process.env.FEED_BENCH_POSTS ?? 1_000)];
const AUTHORS = 40;
const FOLLOWED = 5;
const PAGE = 20;
/** docs/data-model.md (Feed): a page costs 1 Query + 1 BatchGet of posts + the views' batch reads. */
export const MAX_PAGE_REQUESTS = 6;
/** Filters given together: at most MAX_ROUNDS rounds of Query + BatchGet, then the views' reads. */
export const MAX_FILTERED_PAGE_REQUESTS = 2 * 4 + 3;

/** `size` posts over two months by AUTHORS people: a mix of shares, polls, recognitions, announcements, tags. */
function seedItems(size: number, viewer: string, authors: string[]) {
  const items: Item[] = [];
  for (const id of [viewer, ...authors]) {
    items.push(
      User.item({
        ...blankProfile(),
        id,
        email: `${id}@example.com`,
        name: `Person ${id.slice(0, 6)}`,
        role: 'member',
        status: 'active',
        joinedAt: new Date().toISOString(),
      }),
    );
  }
  for (const id of authors.slice(0, FOLLOWED))
    items.push(Follow.item({ userId: viewer, followingId: id, actorId: viewer, createdAt: new Date().toISOString() }));
  const posts: PostItem[] = [];
  const start = Date.now() - 60 * 24 * 3600 * 1000;
  for (let i = 0; i < size; i++) {
    const at = new Date(start + Math.floor((i * 60 * 24 * 3600 * 1000) / size));
    const id = newSortableId(at);
    const authorId = authors[i % AUTHORS];
    const original = i % 7 === 6 && posts.length ? posts[rnd(posts.length)] : undefined;
    const post: PostItem = Post.item({
      id,
      authorId,
      content: `Post ${i} #tag${i % 20} about things`,
      tags: [`tag${i % 20}`],
      images: [],
      videos: [],
      documents: [],
      poll:
        !original && i % 10 === 0
          ? {
              question: 'Q?',
              description: '',
              options: [
                { id: 'a', text: 'A' },
                { id: 'b', text: 'B' },
              ],
              closesAt: new Date(at.getTime() + 86400_000).toISOString(),
              closedAt: null,
            }
          : null,
      recognition:
        !original && i % 15 === 0
          ? { recipientId: authors[(i + 1) % AUTHORS], category: 'teamwork', message: 'Thanks' }
          : null,
      isAnnouncement: !original && i % 20 === 0,
      hidden: false,
      sharedPostId: original?.sharedPostId ?? original?.id ?? null,
      mentionedIds: [],
      createdAt: at.toISOString(),
      updatedAt: at.toISOString(),
      editedAt: null,
      actorId: authorId,
      rev: 0,
    });
    posts.push(post);
    items.push(...newPostItems(post));
    if (i % 3 === 0) {
      const list = postLists.bookmarks(viewer);
      items.push(Bookmark.item({ list, postId: id, userId: viewer, actorId: viewer, createdAt: at.toISOString() }));
    }
    if (i % 4 === 0)
      items.push(
        PostReaction.item({
          postId: id,
          userId: viewer,
          reaction: 'like',
          reactedAt: at.toISOString(),
          actorId: viewer,
        }),
      );
  }
  // The leaderboard's items: all-time per person, and each author active on some of the last 40 days.
  for (const a of authors) {
    const t = { reactions: rnd(50), comments: rnd(20), shares: rnd(5), posts: 1 + rnd(30) };
    items.push(FeedScore.item({ userId: a, ...t }));
    for (let d = 0; d < 40; d += 1 + rnd(4)) {
      const day = new Date(Date.now() - d * 86400_000).toISOString().slice(0, 10);
      items.push(
        FeedScoreDay.item({
          userId: a,
          day,
          reactions: rnd(5),
          comments: rnd(3),
          shares: rnd(2),
          posts: rnd(3),
          score: 1,
        }),
      );
    }
  }
  return items;
}

interface Row {
  label: string;
  /** Answers how many items it listed. */
  run: () => Promise<number>;
  bound: number;
  /** Reads on until the page is full (a check on each post): bounded, but sparser data costs more rounds. */
  refills?: boolean;
}

export async function feedBench(): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-feed-'));
  const ddb = await startDynamoDbLocal(join(dir, 'dynamodb'), await freePort());
  benchEnv();
  const meter = new Meter();
  const doc = meteredClient(ddb.endpoint, meter);
  setDbClient(doc);
  const results = new Map<string, { refills: boolean; requests: number[] }>();
  let ok = true;
  try {
    for (const size of SIZES) {
      const table = `bench-feed-${size}`;
      process.env.TABLE_NAME = table;
      await createTable(ddb.endpoint, table);
      const viewerId = randomUUID();
      const authors = Array.from({ length: AUTHORS }, () => randomUUID());
      const t0 = performance.now();
      await batchWrite(doc, table, seedItems(size, viewerId, authors));
      // Seeded past the change feed: the week's and month's top lists swept from the days (the schedule's work).
      await buildTopLists();
      console.log(`feed: seeded ${size} posts in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      const viewer: Viewer = { userId: viewerId, role: 'member' };
      const page = (f: PostFilters) => async () => {
        const first = await listPosts(viewer, f, PAGE, undefined);
        return first.items.length;
      };
      const rows: Row[] = [
        { label: 'GET /posts', run: page({}), bound: MAX_PAGE_REQUESTS },
        { label: 'GET /posts?tag=', run: page({ tag: 'tag3' }), bound: MAX_PAGE_REQUESTS },
        { label: 'GET /posts?authorId=', run: page({ authorId: authors[0] }), bound: MAX_PAGE_REQUESTS },
        { label: 'GET /posts?type=poll', run: page({ type: 'poll' }), bound: MAX_PAGE_REQUESTS },
        { label: 'GET /posts?bookmarked=true', run: page({ bookmarked: true }), bound: MAX_PAGE_REQUESTS },
        {
          label: `GET /posts?following=true (${FOLLOWED} followed)`,
          run: page({ following: true }),
          bound: MAX_PAGE_REQUESTS + 1 + FOLLOWED,
        },
        {
          label: 'GET /posts?tag=&type=poll (a check on each post)',
          run: page({ tag: 'tag0', type: 'poll' }),
          bound: MAX_FILTERED_PAGE_REQUESTS,
          refills: true,
        },
        { label: 'GET /recognitions', run: page({ type: 'recognition' }), bound: MAX_PAGE_REQUESTS },
        // Week and month read their top list, ≤ 3 pages of changes, the changed people's days by key and
        // the profiles of the top rows (never the day partitions); all reads the top of gsi6.
        {
          label: 'GET /people/leaderboard?period=week',
          run: async () => (await leaderboard('week', 20)).length,
          bound: 1 + 3 + Math.ceil((REQUEST_CHANGES * 7) / 100) + 2,
        },
        {
          label: 'GET /people/leaderboard?period=month',
          run: async () => (await leaderboard('month', 20)).length,
          bound: 1 + 3 + Math.ceil((REQUEST_CHANGES * 30) / 100) + 2,
        },
        {
          label: 'GET /people/leaderboard?period=all',
          run: async () => (await leaderboard('all', 20)).length,
          bound: 2,
        },
        { label: 'GET /people/contributors', run: async () => (await contributors(20)).length, bound: 3 },
      ];
      for (const row of rows) {
        meter.reset();
        const started = performance.now();
        const count = await row.run();
        const requests = meter.requests;
        console.log(
          `  ${size.toString().padStart(6)} posts  ${row.label.padEnd(52)} ${String(requests).padStart(3)} requests  ${String(count).padStart(3)} items  ${(performance.now() - started).toFixed(0)} ms`,
        );
        results.set(row.label, {
          refills: !!row.refills,
          requests: [...(results.get(row.label)?.requests ?? []), requests],
        });
        if (requests > row.bound) {
          ok = false;
          console.log(`  over the bound of ${row.bound} requests: ${row.label}`);
        }
      }
    }
    for (const [
      label,
      {
        refills,
        requests: [small, large],
      },
    ] of results) {
      if (large > small && !refills) {
        ok = false;
        console.log(`  grows with the number of posts (${small} → ${large} requests): ${label}`);
      }
    }
  } finally {
    setDbClient(undefined);
    await ddb.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return ok;
}
