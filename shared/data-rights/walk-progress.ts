/**
 * Where a data-rights job is in its walk of the table (table-walk.ts): the Scan position to go on from
 * (null before the first page), pages and items read, and whether the table is done; then the bucket.
 */
export interface WalkProgress {
  cursor: Record<string, unknown> | null;
  pages: number;
  scanned: number;
  tableDone: boolean;
  objectsDone: boolean;
}

export const walkStart = (): WalkProgress => ({
  cursor: null,
  pages: 0,
  scanned: 0,
  tableDone: false,
  objectsDone: false,
});

/** The walk after one more page of the table. */
export const advanced = (
  walk: WalkProgress,
  page: { items: readonly unknown[]; next: Record<string, unknown> | null },
): WalkProgress => ({
  ...walk,
  cursor: page.next,
  pages: walk.pages + 1,
  scanned: walk.scanned + page.items.length,
  tableDone: page.next === null,
});

/** How far a job (an erasure or an export) got and how its attempts stand, as both job views answer. */
export const jobProgressView = (job: {
  walk: WalkProgress;
  counts: Record<string, number>;
  attempts?: number;
  retryAt?: string;
  error?: string;
}) => ({
  progress: { pages: job.walk.pages, scanned: job.walk.scanned },
  counts: job.counts,
  attempts: job.attempts ?? 0,
  retryAt: job.retryAt ?? null,
  error: job.error ?? null,
});
