import * as z from '../../util/zod.ts';
import { declared } from '../route-def.ts';

/** A data-rights job's failed attempts (shared/data-rights/work.ts): none of it personal data. */
const attemptsFields = /* @__PURE__ */ declared(() => ({
  attempts: z.described(z.number().check(z.int()), 'Failed attempts of its current step in a row (0 when none).'),
  retryAt: z.described(z.nullable(z.string()), 'While a failed step waits: when it is tried again.'),
  error: z.described(
    z.nullable(z.string()),
    'Why its step failed (the step and the kind of failure, never personal data): the last failure while retried, the reason once `failed`.',
  ),
}));

/** A data export as its routes answer it (docs/people-data.md). */
export const DataExportView = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      id: z.string(),
      userId: z.string(),
      requestedBy: z.described(z.string(), 'Who asked: the person, or the super admin who did.'),
      status: z.enum(['running', 'ready', 'failed', 'expired']),
      requestedAt: z.string(),
      readyAt: z.nullable(z.string()),
      expiresAt: z.described(z.nullable(z.string()), 'When the document is erased (set once it is ready).'),
      progress: z.object({ pages: z.number().check(z.int()), scanned: z.number().check(z.int()) }),
      counts: z.described(
        z.catchall(z.object({}), z.number().check(z.int())),
        'Items collected per section of the document.',
      ),
      ...attemptsFields,
      notice: z.described(
        z.nullable(
          z.object({
            email: z.enum(['pending', 'sent', 'dropped']),
            inApp: z.nullable(z.enum(['pending', 'sent', 'dropped'])),
          }),
        ),
        "A super admin's export of somebody: the notice owed to the person (an e-mail, and a notification if they could sign in), sent by the background worker and retried until sent; dropped once their erasure has begun. Null on a person's own export.",
      ),
      url: z.described(
        z.nullable(z.string()),
        'While ready: a signed link to the JSON document, valid for 15 minutes (ask again for a new one).',
      ),
    }),
    {
      id: 'DataExport',
      description:
        "A copy of one person's data: a JSON document (format `workplace-person-data/1`) with one section per kind of data, every item the person owns or that is about them, secrets left out, and media as signed links valid 7 days. What the person wrote in the anonymous grievance channel is not included and cannot be: the document says so. The document is erased 7 days after it is ready; this record stays as the audit of who exported whose data, when, and how many items per section. A super admin's export is always a job of its own, and tells the person (e-mail, and a notification if they can sign in); the person can read it at their own export route. Once the person's erasure has begun, no export starts (409) and a running one stops (`failed`).",
    },
  ),
);

/** An erasure as its routes answer it: no personal data, ever. */
export const ErasureView = /* @__PURE__ */ declared(() =>
  z.withMeta(
    z.object({
      id: z.string(),
      status: z.enum(['running', 'done', 'failed']),
      reason: z.enum(['retention', 'super_admin']),
      startedAt: z.string(),
      finishedAt: z.nullable(z.string()),
      progress: z.object({ pages: z.number().check(z.int()), scanned: z.number().check(z.int()) }),
      counts: z.described(z.catchall(z.object({}), z.number().check(z.int())), 'What was done, by kind of item.'),
      ...attemptsFields,
    }),
    {
      id: 'Erasure',
      description:
        'The erasure of a person who left. Deleted: profile fields, date of birth, every version of their avatar and uploads, sessions, credentials, push registrations, notifications to them, attendance, leave they asked for, presence, bookmarks, follows. Kept for the others, under one fresh opaque id per erased person: their posts, comments and replies (author shown as `actor` null, "Former member"), reactions and votes (counters stay exact), leave decisions they made (without their name). Their grievance-channel items hold no plain id and are left to the grievance retention. Not reached at once: point-in-time recovery backups (35 days), the table\'s stream (24 hours), logs (their retention), e-mail already sent. Once done, this record is the audit: counts and times, no personal data.',
    },
  ),
);

export const LegalHold = /* @__PURE__ */ declared(() =>
  z.withMeta(z.object({ userId: z.string(), legalHold: z.boolean() }), {
    id: 'LegalHold',
    description: 'While a legal hold is set, neither the people retention nor a super admin can erase the person.',
  }),
);
