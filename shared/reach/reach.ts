import { notFound } from '../errors.ts';
import { Post } from '../feed/entities.ts';
import { looksLikeId } from '../feed/model.ts';
import {
  MARKS,
  type MarkCounts,
  ReachDay,
  ReachSlice,
  type ReachSliceItem,
  ReachTotal,
  type ReachTotalItem,
  type Slicing,
} from './entities.ts';
import { reachSettings } from './settings.ts';

/**
 * A post's reach as the super admins' routes answer it (docs/reach.md): the roll-ups only, never the
 * marks: one Get of the total, one Query of the slicing's slices and one of the days, so O(slices +
 * days), whatever the number of readers.
 */

export interface Counts extends MarkCounts {
  targeted: number;
  delivered: number;
}

export interface SliceView extends Counts {
  value: string | null;
}

export interface ReachView extends Counts {
  postId: string;
  publishedAt: string;
  /** When the audience at publish was counted (null: not yet, `targeted` and `delivered` are 0 until then). */
  targetedAt: string | null;
  by: Slicing | null;
  slices: SliceView[];
  suppressed: number;
  threshold: number;
  days: ({ day: string } & MarkCounts)[];
}

const marksOf = (item: Partial<MarkCounts> | undefined): MarkCounts =>
  Object.fromEntries(MARKS.map((m) => [m, Number(item?.[m] ?? 0)])) as MarkCounts;

export const countsOf = (t: ReachTotalItem | ReachSliceItem | undefined): Counts => ({
  targeted: Number(t?.targeted ?? 0),
  delivered: Number(t?.delivered ?? 0),
  ...marksOf(t),
});

/**
 * The slices shown, after suppression (docs/reach.md, Small slices): a slice of fewer than `threshold`
 * people targeted is withheld; so is the smallest shown slice, then the next, while the withheld ones
 * are a single slice or together fewer than `threshold` people — otherwise the total minus the shown
 * slices would be the withheld slice itself. Answers the shown slices (largest first) and how many were withheld.
 */
export function suppress<T extends { targeted: number; value: string | null }>(
  slices: T[],
  threshold: number,
): { shown: T[]; suppressed: number } {
  const order = (a: T, b: T) => b.targeted - a.targeted || String(a.value).localeCompare(String(b.value));
  const shown = slices.filter((s) => s.targeted >= threshold).sort(order);
  const withheld = slices.filter((s) => s.targeted < threshold);
  const sum = () => withheld.reduce((n, s) => n + s.targeted, 0);
  while (withheld.length > 0 && shown.length > 0 && (withheld.length === 1 || sum() < threshold))
    withheld.push(shown.pop()!);
  return { shown, suppressed: withheld.length };
}

/** The slices of a post by one slicing, suppressed. */
export async function slicesOf(
  postId: string,
  by: Slicing,
  threshold: number,
): Promise<{ slices: SliceView[]; suppressed: number }> {
  const items = await ReachSlice.queryAll({ key: { postId, by } });
  const all = items.map((s) => ({ value: s.value === '' ? null : s.value, ...countsOf(s) }));
  const { shown, suppressed } = suppress(all, threshold);
  return { slices: shown, suppressed };
}

export async function postReach(postId: string, by?: Slicing): Promise<ReachView> {
  const post = looksLikeId(postId) ? await Post.get({ id: postId }) : undefined;
  if (!post) throw notFound('No such post.');
  const [total, days, settings] = await Promise.all([
    ReachTotal.get({ postId }, { consistent: true }),
    ReachDay.queryAll({ key: { postId } }),
    reachSettings(),
  ]);
  const sliced = by ? await slicesOf(postId, by, settings.suppressionThreshold) : { slices: [], suppressed: 0 };
  return {
    postId,
    publishedAt: post.createdAt,
    targetedAt: total?.targetedAt ?? null,
    ...countsOf(total),
    by: by ?? null,
    ...sliced,
    threshold: settings.suppressionThreshold,
    days: days.map((d) => ({ day: d.day, ...marksOf(d) })).sort((a, b) => a.day.localeCompare(b.day)),
  };
}
