import { gunzipSync } from 'node:zlib';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import type { Item } from '../../shared/db/table.ts';
import { Notification } from '../../shared/notifications/entities.ts';
import { notificationContent } from '../../shared/notifications/notifications.ts';
import { bucketName, s3 } from '../../shared/storage/client.ts';
import { scanTable, storedObjects } from './stored-data.ts';

/**
 * What is left of a person (the people's data rights, issue 28): a search of the whole table and every
 * stored object for what identifies them (their id, e-mail, name, date of birth, ...).
 */

/** Where a needle was found: a table item's attribute, or an object's key, metadata or body. */
export interface Trace {
  needle: string;
  /** `table` items: `<entity> <pk> | <sk>`; `bucket` objects: `<key>` (with `@<versionId>` when versioned). */
  where: string;
  /** Inside it: an attribute path (`.content`, `.sealed→preview`, a map's key as `.{row_x}`), or `key`, `metadata.<name>`, `body`. */
  path: string;
}

/** Whether bytes start as gzip does (1f 8b). */
const isGzip = (b: Buffer) => b.length > 2 && b[0] === 0x1f && b[1] === 0x8b;

/** The needles found in one text (case-insensitively: an e-mail's case is not its identity). */
const found = (text: string, needles: string[]) => {
  const lower = text.toLowerCase();
  return needles.filter((n) => lower.includes(n.toLowerCase()));
};

/** Every string of a value, with its path; a map's keys are strings of it too (`row_<userId>`). */
function* strings(value: unknown, path: string): Generator<[string, string]> {
  if (typeof value === 'string') yield [path, value];
  else if (typeof value === 'number' || typeof value === 'bigint') yield [path, String(value)];
  else if (value instanceof Uint8Array) yield [path, Buffer.from(value).toString('latin1')];
  else if (value instanceof Set || Array.isArray(value)) {
    let i = 0;
    for (const v of value) yield* strings(v, `${path}[${i++}]`);
  } else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      yield [`${path}.{${k}}`, k];
      yield* strings(v, `${path}.${k}`);
    }
}

/**
 * Every place in the whole table and every stored object (version) where one of the needles occurs as
 * a substring, case-insensitively: item attributes and their names at any depth (items of the grievance
 * channel, stamped `anon`, included), each notification's sealed content opened (a notification to
 * somebody else naming the person as actor), object keys, user metadata and bodies (gzipped ones unzipped).
 */
export async function findTraces(
  needles: string[],
  opts: { items?: Item[] } = {},
): Promise<{ traces: Trace[]; versioned: boolean }> {
  const wanted = needles.filter((n) => n.length > 0);
  const traces: Trace[] = [];
  for (const item of opts.items ?? (await scanTable())) {
    const where = `${item.entity} ${item.pk} | ${item.sk}`;
    for (const [path, text] of strings(item, ''))
      for (const needle of found(text, wanted)) traces.push({ needle, where, path });
    if (Notification.is(item) && typeof item.sealed === 'string') {
      const content = notificationContent(item);
      if (content === null) traces.push({ needle: '', where, path: '.sealed (does not open)' });
      else
        for (const [path, text] of strings(content, '.sealed→'))
          for (const needle of found(text, wanted)) traces.push({ needle, where, path });
    }
  }
  const { objects, versioned } = await storedObjects();
  const Bucket = bucketName();
  for (const o of objects) {
    const where = o.versionId ? `${o.key}@${o.versionId}` : o.key;
    for (const needle of found(o.key, wanted)) traces.push({ needle, where, path: 'key' });
    const got = await s3()
      .send(new GetObjectCommand({ Bucket, Key: o.key, VersionId: o.versionId }))
      .catch(() => undefined);
    // A delete marker has no body; a version listed a moment ago may have gone meanwhile.
    if (!got) continue;
    for (const [name, value] of Object.entries(got.Metadata ?? {}))
      for (const needle of found(`${name}=${value}`, wanted)) traces.push({ needle, where, path: `metadata.${name}` });
    const stored = Buffer.from((await got.Body?.transformToByteArray()) ?? []);
    // A gzipped object (the whole lists' documents: `.gz`, `Content-Encoding: gzip`) is read unzipped:
    // its compressed bytes would hide every needle. One that does not unzip is a finding of its own.
    const zipped = o.key.endsWith('.gz') || /gzip/i.test(got.ContentEncoding ?? '') || isGzip(stored);
    let body = stored;
    if (zipped)
      try {
        body = gunzipSync(stored);
      } catch {
        traces.push({ needle: '', where, path: 'body (gzip that does not unzip)' });
      }
    // Latin-1 keeps every byte (an ASCII needle in binary media); UTF-8 finds needles beyond ASCII.
    const texts = new Set([body.toString('latin1'), body.toString('utf8')]);
    const inBody = new Set([...texts].flatMap((t) => found(t, wanted)));
    for (const needle of inBody) traces.push({ needle, where, path: 'body' });
  }
  return { traces, versioned };
}
