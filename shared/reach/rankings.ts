import { decodeCursor, encodeCursor } from '../db/cursor.ts';
import { page } from '../db/paging.ts';
import { invalid } from '../errors.ts';
import { ReachTotal, type ReachTotalItem, type Slicing } from './entities.ts';
import { type Counts, countsOf, type SliceView, slicesOf } from './reach.ts';
import { reachSettings } from './settings.ts';

/**
 * `GET /admin/reach` (docs/reach.md, Rankings): the posts published in a period of UTC days, most seen
 * first, a page at a time. Each day's posts are their own partition of a numeric index sorted by
 * `seen` (gsi6; gsi7 for one audience's posts), so a page reads at most `limit + 1` totals of each day
 * of the period and merges them: O(page × days), the period at most 31 days, whatever the number of
 * posts or readers. The cursor holds each day's place (the last post taken from it).
 */
export const MAX_DAYS = 31;
const DAY = 24 * 60 * 60 * 1000;

export interface RankingRow extends Counts {
  postId: string;
  publishedAt: string | null;
  audienceId: string | null;
  slices?: SliceView[];
  suppressed?: number;
}

function daysOf(from: string, to: string): string[] {
  const start = Date.parse(`${from}T00:00:00.000Z`);
  const end = Date.parse(`${to}T00:00:00.000Z`);
  const real = (t: number, day: string) => !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === day;
  if (!real(start, from) || !real(end, to)) throw invalid(['from, to: must be dates (YYYY-MM-DD)']);
  if (end < start) throw invalid(['to: must not be before from']);
  const n = (end - start) / DAY + 1;
  if (n > MAX_DAYS) throw invalid([`to: the period is at most ${MAX_DAYS} days`]);
  return Array.from({ length: n }, (_, i) => new Date(start + i * DAY).toISOString().slice(0, 10));
}

/** A day's place: the last post taken (its id and `seen` as indexed), or 0 once the day is exhausted. */
type Place = [string, number] | 0;

export async function reachRankings(q: {
  from: string;
  to: string;
  audienceId?: string;
  groupBy?: Slicing;
  limit: number;
  cursor?: string;
}): Promise<{ items: RankingRow[]; nextCursor: string | null }> {
  const days = daysOf(q.from, q.to);
  const index = q.audienceId ? 'rankInAudience' : 'rank';
  const gsi = q.audienceId ? 'gsi7' : 'gsi6';
  const scope = `reach-rankings|${q.from}|${q.to}|${q.audienceId ?? ''}`;
  const places = (decodeCursor(scope, q.cursor) ?? {}) as Record<string, Place>;
  const partition = (day: string) =>
    ReachTotal.indexAttributes({ postId: '', publishedDay: day, audienceId: q.audienceId ?? null })[`${gsi}pk`];
  const lists = await Promise.all(
    days.map(async (day) => {
      const place = places[day];
      const none: ReachTotalItem[] = [];
      if (place === 0) return { day, items: none, more: false };
      const dayScope = `${scope}|${day}`;
      const start = place
        ? encodeCursor(dayScope, {
            pk: `REACH#${place[0]}`,
            sk: 'TOTAL',
            [`${gsi}pk`]: partition(day),
            [`${gsi}sk`]: place[1],
          })
        : undefined;
      const found = await ReachTotal.query(
        { index, key: { publishedDay: day, ...(q.audienceId ? { audienceId: q.audienceId } : {}) }, forward: false },
        page({ limit: q.limit, cursor: start ?? undefined, scope: dayScope }),
      );
      return { day, items: found.items, more: !!found.nextCursor };
    }),
  );
  // Merge: the most seen head of any day first; a day's own order kept.
  const seenOf = (t: ReachTotalItem) => Number((t as Record<string, unknown>)[`${gsi}sk`] ?? t.seen ?? 0);
  const heads = lists.map(() => 0);
  const taken: ReachTotalItem[] = [];
  while (taken.length < q.limit) {
    let best = -1;
    lists.forEach((l, i) => {
      const t = l.items[heads[i]!];
      if (!t) return;
      if (best < 0 || seenOf(t) > seenOf(lists[best]!.items[heads[best]!]!)) best = i;
    });
    if (best < 0) break;
    taken.push(lists[best]!.items[heads[best]!]!);
    heads[best]!++;
  }
  const next: Record<string, Place> = {};
  let open = false;
  lists.forEach((l, i) => {
    const used = heads[i]!;
    const last = used > 0 ? l.items[used - 1]! : undefined;
    const exhausted = used === l.items.length && !l.more;
    if (exhausted) next[l.day] = 0;
    else {
      open = true;
      const kept = last ? ([last.postId, seenOf(last)] as Place) : places[l.day];
      if (kept) next[l.day] = kept;
    }
  });
  const threshold = q.groupBy ? (await reachSettings()).suppressionThreshold : 0;
  const items = await Promise.all(
    taken.map(async (t): Promise<RankingRow> => {
      const row: RankingRow = {
        postId: t.postId,
        publishedAt: t.publishedAt ?? null,
        audienceId: t.audienceId ?? null,
        ...countsOf(t),
      };
      if (!q.groupBy) return row;
      return { ...row, ...(await slicesOf(t.postId, q.groupBy, threshold)) };
    }),
  );
  return { items, nextCursor: open ? encodeCursor(scope, next) : null };
}

const csvCell = (v: unknown) => {
  const s = v === null || v === undefined ? '' : String(v);
  // Quoted when needed; a leading formula character is defused (CSV injection).
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

const COLUMNS = ['targeted', 'delivered', 'seen', 'reacted', 'commented', 'acknowledged'] as const;

/** The rankings as CSV: one row per post, or, grouped, one per shown slice of each post (`slice` column). */
export function rankingsCsv(rows: RankingRow[], groupBy?: Slicing): string {
  const header = ['postId', 'publishedAt', 'audienceId', ...(groupBy ? [groupBy, 'suppressed'] : []), ...COLUMNS];
  const lines = [header.join(',')];
  for (const r of rows) {
    const base = [r.postId, r.publishedAt, r.audienceId];
    if (!groupBy) {
      lines.push([...base, ...COLUMNS.map((c) => r[c])].map(csvCell).join(','));
      continue;
    }
    lines.push([...base, '(all)', r.suppressed ?? 0, ...COLUMNS.map((c) => r[c])].map(csvCell).join(','));
    for (const s of r.slices ?? [])
      lines.push([...base, s.value ?? '(none)', '', ...COLUMNS.map((c) => s[c])].map(csvCell).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
