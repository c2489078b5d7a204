import { type EntityItem, entity, shape } from '../db/entity.ts';
import type { WalkProgress } from './walk-progress.ts';

/**
 * People's data rights (docs/data-model.md, Data rights; docs/people-data.md):
 * a copy of a person's data and their erasure after they left, each a job walked in the background.
 */

export type ExportStatus = 'running' | 'ready' | 'failed' | 'expired';

/** Where one channel of a notice is: to send, sent, or dropped (the person is being erased, or gone). */
export type NoticeState = 'pending' | 'sent' | 'dropped';

/**
 * The notice a super admin's export of somebody owes that person (their e-mail, and a notification on
 * the bell if they could sign in when it was asked): recorded with the job in the transaction that
 * creates it, sent by the worker (work.ts), retried each run until sent.
 */
export interface ExportNotice {
  email: NoticeState;
  /** Null when the person could not sign in (not active) when the export was asked. */
  inApp: NoticeState | null;
  /** The notification's id, fixed with the job so that a retry writes it once. */
  notificationId: string;
  attempts: number;
  /** The kind of the last failure (no personal data). */
  lastError?: string;
}

/**
 * A failing step's retries (work.ts): how many times the job's step failed in a row, when it may be
 * tried again, and, once it has failed for good (`failed`), why, as a kind of error and the step, never
 * personal data.
 */
export interface JobAttempts {
  attempts?: number;
  retryAt?: string;
  error?: string;
}

/**
 * A copy of one person's data: the job that collects it (walk progress, counts per section) and, once
 * it is assembled, its document in the bucket until `expiresAt`. The item stays as the export's audit
 * record (who asked, when, what it held); while the export is open (running, or ready and not yet
 * expired) it is on the open-exports index the worker reads.
 */
export const DataExport = entity({
  name: 'DataExport',
  fields: shape<
    {
      id: string;
      /** Whose data. */
      userId: string;
      /** Who asked: the person, or a super admin. */
      requestedBy: string;
      requestedAt: string;
      status: ExportStatus;
      walk: WalkProgress;
      /** Items collected per section of the document. */
      counts: Record<string, number>;
      /** Parts written to the bucket so far (one per page of the walk that found something). */
      parts: number;
      readyAt: string | null;
      /** When the document is erased (set when it is ready). */
      expiresAt: string | null;
      /** A super admin's export of somebody: the notice owed to them (absent on the person's own). */
      notice?: ExportNotice;
      /** The worker holding the job until then (work.ts). */
      leaseUntil?: string;
    } & JobAttempts
  >(),
  key: { pk: ['DATAEXPORT', 'id'], sk: ['EXPORT'] },
  indexes: {
    /** Exports still to collect or to erase, or whose notice is still to send, oldest first. */
    open: {
      index: 'gsi1',
      pk: ['DATARIGHTS_OPEN'],
      sk: ['requestedAt', 'id'],
      when: (e) =>
        e.status === 'running' ||
        e.status === 'ready' ||
        e.notice?.email === 'pending' ||
        e.notice?.inApp === 'pending',
    },
  },
});
export type DataExportItem = EntityItem<typeof DataExport>;

/**
 * The latest export a person asked for themselves (what `POST /users/me/data-export` answers while it
 * runs, or the day's ready one), keyed by the person: erased with them. A super admin's exports never
 * move it: each is its own job.
 */
export const DataExportClaim = entity({
  name: 'DataExportClaim',
  fields: shape<{ userId: string; exportId: string; at: string }>(),
  key: { pk: ['DATAEXPORT_OF', 'userId'], sk: ['LATEST'] },
});

export type ErasureStatus = 'running' | 'done' | 'failed';

/**
 * The erasure of one person who left: while it runs, whom it erases (id, e-mail and the fresh opaque id
 * their kept posts and votes move to); when done, only its audit record: when, by what (`retention` or a
 * super admin's request), and counts, with no personal data.
 */
export const PersonErasure = entity({
  name: 'PersonErasure',
  fields: shape<
    {
      id: string;
      /** Removed when the erasure is done. */
      userId?: string;
      email?: string;
      name?: string;
      dateOfBirth?: string | null;
      /** The opaque id that replaces the person on what others keep (posts, comments, reactions, votes). */
      pseudonym?: string;
      /** `retention`, or `super_admin` (the admin is named in `requestedBy`). */
      reason: 'retention' | 'super_admin';
      requestedBy: string | null;
      startedAt: string;
      finishedAt: string | null;
      status: ErasureStatus;
      walk: WalkProgress;
      /** What was done, by kind of item: `<Entity>.deleted` / `<Entity>.kept` and `objects.deleted`. */
      counts: Record<string, number>;
      /**
       * Set when the table and the bucket are done: from then on the change log's events written since the
       * erasure began are rewritten too (the change feed turns the erasure's own writes into events a little
       * later, so the last pass waits until then).
       */
      liveAfter?: string;
      /**
       * The second walk of the table (after the first walk, the bucket and a settle): what writes that had
       * read before the erasure began landed while it ran. Absent until it starts (and on a job recorded by
       * an earlier release, which then starts it).
       */
      again?: WalkProgress;
      /**
       * The whole lists' documents (after the second walk): folded without the person (`folded`), then
       * their old versions erased a page at a time from `next` until `done` (shared/whole-lists/erasure.ts).
       * Absent until then (and on a job recorded by an earlier release, which then does it).
       */
      documents?: { folded: boolean; next?: { key: string; versionId: string }; done?: boolean };
      /** The change log's position when the erasure began: its last pass reads the events after it. */
      liveFrom?: { epoch: string; seq: number };
      leaseUntil?: string;
    } & JobAttempts
  >(),
  key: { pk: ['ERASURE', 'id'], sk: ['ERASURE'] },
  indexes: {
    /** Erasures still running, oldest first. */
    running: {
      index: 'gsi2',
      pk: ['ERASURES_RUNNING'],
      sk: ['startedAt', 'id'],
      when: (e) => e.status === 'running',
    },
  },
});
export type PersonErasureItem = EntityItem<typeof PersonErasure>;
