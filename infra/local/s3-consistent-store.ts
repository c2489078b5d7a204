import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';

/**
 * S3 replaces an object whole: a GET answers the old object or the new one, never a mix. The emulator
 * (s3rver's filesystem store) writes an object in place and answers a GET with the size it stat'ed
 * before it opened the file, so a GET during a PUT of the same key can announce the old length and
 * send the new, shorter bytes: the client waits for the rest until its timeout (a whole-list route
 * held past its deadline, then 503). This makes the store do what S3 does: the operations on one key
 * take turns, a PUT finishes writing (object, checksum, metadata) before a GET of the key reads, and a
 * GET reads the whole object before the next PUT starts.
 */
interface StoredObject {
  bucket: string;
  key: string;
  metadata: Record<string, string>;
  content: Readable | Buffer | null;
}

export interface EmulatorStore {
  getResourcePath(bucket: string, key: string, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>;
  getObject(bucket: string, key: string, options?: unknown): Promise<StoredObject | null>;
  putObject(object: StoredObject): Promise<{ size: number; md5: string }>;
  copyObject(
    srcBucket: string,
    srcKey: string,
    destBucket: string,
    destKey: string,
    ...rest: unknown[]
  ): Promise<unknown>;
  deleteObject(bucket: string, key: string): Promise<unknown>;
}

export function makeConsistent(store: EmulatorStore): void {
  const turns = new Map<string, Promise<unknown>>();
  /** Runs `work` after every earlier operation on the same key has ended. */
  const inTurn = <T>(bucket: string, key: string, work: () => Promise<T>): Promise<T> => {
    const id = `${bucket}/${key}`;
    const run = (turns.get(id) ?? Promise.resolve()).then(work, work);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    turns.set(id, settled);
    void settled.then(() => {
      if (turns.get(id) === settled) turns.delete(id);
    });
    return run;
  };

  const { getObject, copyObject, deleteObject } = store;

  store.putObject = (object) =>
    inTurn(object.bucket, object.key, async () => {
      const bytes = Buffer.isBuffer(object.content) ? object.content : await buffer(object.content as Readable);
      const objectPath = store.getResourcePath(object.bucket, object.key, 'object');
      await mkdir(dirname(objectPath), { recursive: true });
      await writeFile(objectPath, bytes);
      const md5 = createHash('md5').update(bytes).digest('hex');
      await store.putMetadata(object.bucket, object.key, object.metadata, md5);
      return { size: bytes.length, md5 };
    });

  store.getObject = (bucket, key, options) =>
    inTurn(bucket, key, async () => {
      const object = await getObject.call(store, bucket, key, options);
      // Read whole within the turn; the answer streams from memory.
      if (object?.content && !Buffer.isBuffer(object.content))
        object.content = Readable.from(await buffer(object.content));
      return object;
    });

  store.copyObject = (srcBucket, srcKey, destBucket, destKey, ...rest) =>
    inTurn(destBucket, destKey, () => copyObject.call(store, srcBucket, srcKey, destBucket, destKey, ...rest));

  store.deleteObject = (bucket, key) => inTurn(bucket, key, () => deleteObject.call(store, bucket, key));
}
