import { gunzipSync, gzipSync } from 'node:zlib';
import { GetObjectCommand, type GetObjectCommandOutput, PutObjectCommand } from '@aws-sdk/client-s3';
import { atRevision } from '../db/entity.ts';
import { newId } from '../db/ids.ts';
import { isConditionFailure, write } from '../db/table.ts';
import { logger } from '../observability/logger.ts';
import { bucketName, s3 } from '../storage/client.ts';
import { applyChanges, pendingChanges, type Rows } from './changes.ts';
import { DocumentChange, type DocumentChangeItem, DocumentLease } from './entities.ts';

export { applyChanges, pendingChanges, type Rows };

/**
 * Whole lists (the roster behind `/admin/members`, `/org-chart`, the employees and approvers, and a
 * day's attendance) as documents kept up to date in the background (docs/data-model.md, Whole lists).
 *
 * - The document: one gzipped JSON object in the bucket (`documents/<name>.json.gz`), every row by
 *   key with its `rev`. Reading it costs no DynamoDB read at all.
 * - What it does not hold yet: one `DocumentChange` item per changed row, written in the transaction
 *   of the change itself. A request reads them first (one consistent Query of one partition), then the
 *   document, and applies each over a row of a lower or equal `rev`: every change made before the
 *   request is in its answer, whatever the document's age.
 * - The fold (`foldList`): the stream consumer (functions/stream/whole-lists.ts) sees the change
 *   items, and the holder of the document's lease writes the document with them applied, then deletes
 *   them (each conditioned on its `rev`). The items a request reads are therefore only those written
 *   since the last fold: a few seconds of changes, never the company.
 *
 * Reading the change items before the document is what makes this exact: a change item is deleted
 * only after a document holding it was written (S3 reads after a write see it), so a request sees
 * each change either in the items or in the document it reads afterwards; an item read before a newer
 * change was folded loses to the document's higher `rev`.
 */

interface StoredDocument {
  /** The document's format (1). */
  form: 1;
  name: string;
  builtAt: string;
  rows: Record<string, unknown[]>;
}

/** Where the documents are in the bucket (the lifecycle rule and the data-rights worker's grant name it too). */
export const DOCUMENTS_PREFIX = 'documents/';
const objectKey = (doc: string) => `${DOCUMENTS_PREFIX}${doc}.json.gz`;
/** The document an object key is of (undefined for any other key). */
export const documentName = (key: string) =>
  key.startsWith(DOCUMENTS_PREFIX) && key.endsWith('.json.gz')
    ? key.slice(DOCUMENTS_PREFIX.length, -'.json.gz'.length)
    : undefined;

/** What a document's object looked like when last read here: reused while S3 answers 304 for its ETag. */
const cached: Map<string, { etag: string; rows: Rows }> = new Map();

/** The stored document's rows, or undefined when it was never built. */
export async function readDocument(doc: string): Promise<Rows | undefined> {
  const key = objectKey(doc);
  const known = cached.get(key);
  let out: GetObjectCommandOutput;
  try {
    out = await s3().send(
      new GetObjectCommand({ Bucket: bucketName(), Key: key, ...(known ? { IfNoneMatch: known.etag } : {}) }),
    );
  } catch (err) {
    const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
    if (known && (e.$metadata?.httpStatusCode === 304 || e.name === 'NotModified')) return new Map(known.rows);
    if (e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404) return undefined;
    throw err;
  }
  const bytes = Buffer.from(await out.Body!.transformToByteArray());
  const parsed = JSON.parse(gunzipSync(bytes).toString('utf8')) as StoredDocument;
  const rows: Rows = new Map(Object.entries(parsed.rows));
  if (!out.ETag) return rows;
  cached.set(key, { etag: out.ETag, rows });
  // A copy: readers apply changes to what they get.
  return new Map(rows);
}

async function writeDocument(doc: string, rows: Rows): Promise<void> {
  const stored: StoredDocument = {
    form: 1,
    name: doc,
    builtAt: new Date().toISOString(),
    rows: Object.fromEntries(rows),
  };
  await s3().send(
    new PutObjectCommand({
      Bucket: bucketName(),
      Key: objectKey(doc),
      Body: gzipSync(JSON.stringify(stored)),
      ContentType: 'application/json',
      ContentEncoding: 'gzip',
    }),
  );
}

/**
 * A document as of now: its pending changes (read first, see above) applied over the stored document.
 * Undefined when no document was ever built: the caller reads its list from the table instead (only
 * until the first fold, which follows the first change within seconds, or the first refresh).
 */
export async function readList(doc: string): Promise<Rows | undefined> {
  const changes = await pendingChanges(doc);
  const rows = await readDocument(doc);
  return rows && applyChanges(rows, changes);
}

// ------------------------------------------------------------------------------------------ the fold

/** How long a fold may hold a document's lease (a crashed holder's is taken over after it). */
const LEASE_MS = 120_000;
/** Rounds one holder folds before leaving the rest to the next batch (a change feed that never rests). */
const MAX_ROUNDS = 20;

/** A consumer batch saw a change of the document: one more to fold. */
const markDirty = (doc: string) => write(DocumentLease.add({ doc }, { dirty: 1 }), { returnValues: 'NONE' });

/**
 * One conditional update of a document's lease: true when its condition held, false when it did not
 * (another holder, or a change seen since); any other failure is thrown. Taking, releasing and renewing
 * the lease are each one such update.
 */
async function updateLease(doc: string, update: Parameters<typeof DocumentLease.update>[1]): Promise<boolean> {
  try {
    await write(DocumentLease.update({ doc }, update), { returnValues: 'NONE' });
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/** Takes the lease when free (or expired), remembering the dirty count it starts from. */
const takeLease = (doc: string, owner: string, now = Date.now()): Promise<boolean> =>
  updateLease(doc, {
    UpdateExpression: 'SET #owner = :me, leaseUntil = :until, seen = if_not_exists(dirty, :zero)',
    ConditionExpression: 'attribute_not_exists(leaseUntil) OR leaseUntil < :now',
    ExpressionAttributeNames: { '#owner': 'owner' },
    ExpressionAttributeValues: {
      ':me': owner,
      ':until': new Date(now + LEASE_MS).toISOString(),
      ':now': new Date(now).toISOString(),
      ':zero': 0,
    },
  });

/** Lets go of the lease unless a change was seen since it was taken (then: false, and it is renewed). */
async function releaseOrRenew(doc: string, owner: string): Promise<'released' | 'again' | 'lost'> {
  const released = await updateLease(doc, {
    UpdateExpression: 'REMOVE #owner, leaseUntil ADD folds :one',
    ConditionExpression: '#owner = :me AND dirty = seen',
    ExpressionAttributeNames: { '#owner': 'owner' },
    ExpressionAttributeValues: { ':me': owner, ':one': 1 },
  });
  if (released) return 'released';
  const renewed = await updateLease(doc, {
    UpdateExpression: 'SET leaseUntil = :until, seen = dirty ADD folds :one',
    ConditionExpression: '#owner = :me',
    ExpressionAttributeNames: { '#owner': 'owner' },
    ExpressionAttributeValues: {
      ':me': owner,
      ':until': new Date(Date.now() + LEASE_MS).toISOString(),
      ':one': 1,
    },
  });
  return renewed ? 'again' : 'lost';
}

/** Deletes folded change items, each only while it is the change that was folded (same rev). */
async function deleteFolded(changes: DocumentChangeItem[]): Promise<void> {
  const CONCURRENCY = 16;
  for (let i = 0; i < changes.length; i += CONCURRENCY) {
    await Promise.all(
      changes
        .slice(i, i + CONCURRENCY)
        .map((c) =>
          write(DocumentChange.remove({ doc: c.doc, key: c.key }, atRevision(c.rev))).catch((err) =>
            isConditionFailure(err) ? undefined : Promise.reject(err),
          ),
        ),
    );
  }
}

export interface ListSpec {
  /** The document's name (its object `documents/<name>.json.gz`, its change partition). */
  doc: string;
  /** Every row read from the table (background only: it may read the whole company, in pages). */
  build: () => Promise<Rows>;
  /** The current rows of these keys, read consistently (absent: no such row any more). */
  read: (keys: string[]) => Promise<Rows>;
}

/**
 * A rebuild over the document it replaces: the table's rows, except where the document holds a newer
 * rev (an index read a moment behind a change already folded), and the document's rows the build did
 * not meet read again by key (kept when they still exist: a person the index had not shown yet).
 */
async function rebuilt(spec: ListSpec, previous: Rows | undefined): Promise<Rows> {
  const rows = await spec.build();
  if (!previous) return rows;
  const unmet: string[] = [];
  for (const [key, row] of previous) {
    const built = rows.get(key);
    if (!built) unmet.push(key);
    else if (Number(row[0]) > Number(built[0])) rows.set(key, row);
  }
  for (const [key, row] of await spec.read(unmet)) rows.set(key, row);
  return rows;
}

/**
 * Folds a document's pending changes into it: marks it dirty, and when its lease is free takes it and
 * folds until no change came in meanwhile (or MAX_ROUNDS: the next batch goes on). `full` (the
 * refresh, a missing document) builds the rows from the table first, then applies what is pending.
 * Answers whether this call folded (false: another holder will, having seen the mark).
 */
export async function foldList(spec: ListSpec, { full = false }: { full?: boolean } = {}): Promise<boolean> {
  await markDirty(spec.doc);
  const owner = newId();
  if (!(await takeLease(spec.doc, owner))) return false;
  let rebuild = full;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const changes = await pendingChanges(spec.doc);
    const stored = await readDocument(spec.doc);
    const rows = rebuild || !stored ? await rebuilt(spec, stored) : stored;
    await writeDocument(spec.doc, applyChanges(rows, changes));
    await deleteFolded(changes);
    rebuild = false;
    const next = await releaseOrRenew(spec.doc, owner);
    if (next === 'released') return true;
    if (next === 'lost') {
      logger.warn('whole list: lease lost while folding', { doc: spec.doc });
      return true;
    }
  }
  // Still changing after MAX_ROUNDS: let go (the dirty mark stays ahead of `seen`, so the next batch
  // or the refresh folds the rest) rather than holding the lease until it expires.
  await write(
    DocumentLease.update(
      { doc: spec.doc },
      {
        UpdateExpression: 'REMOVE #owner, leaseUntil',
        ConditionExpression: '#owner = :me',
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':me': owner },
      },
    ),
    { returnValues: 'NONE' },
  ).catch((err) => (isConditionFailure(err) ? undefined : Promise.reject(err)));
  return true;
}
