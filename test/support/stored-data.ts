import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { ListObjectsV2Command, ListObjectVersionsCommand } from '@aws-sdk/client-s3';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { tableName } from '../../shared/db/client.ts';
import type { Item } from '../../shared/db/table.ts';
import { Notification, type NotificationContent, type NotificationItem } from '../../shared/notifications/entities.ts';
import { notificationContent } from '../../shared/notifications/notifications.ts';
import { bucketName, s3 } from '../../shared/storage/client.ts';

/**
 * The stored data as it is, for tests that look at all of it: every item of the table and every object
 * (version) of the bucket. The data-rights harness (person-traces.ts, counters.ts, read-routes.ts)
 * and the upgrade test (test/upgrade) read through these.
 */

/** Every item of the table (TABLE_NAME at the time of the call), unmarshalled, read consistently. */
export async function scanTable(): Promise<Item[]> {
  const client = new DynamoDBClient({ region: process.env.AWS_REGION });
  const items: Item[] = [];
  let start: Record<string, any> | undefined;
  do {
    const page = await client.send(
      new ScanCommand({ TableName: tableName(), ExclusiveStartKey: start, ConsistentRead: true }),
    );
    items.push(...(page.Items ?? []).map((i) => unmarshall(i)));
    start = page.LastEvaluatedKey;
  } while (start);
  client.destroy();
  return items;
}

/**
 * Every notification of a table, opened as the list opens it (kind and actor are sealed:
 * shared/notifications/notifications.ts), through `client` (the table's own emulator).
 */
export async function openedNotifications(
  client: DynamoDBClient,
  table = tableName(),
): Promise<{ item: NotificationItem; c: NotificationContent | undefined }[]> {
  const out: { item: NotificationItem; c: NotificationContent | undefined }[] = [];
  let start: Record<string, any> | undefined;
  do {
    const page = await client.send(
      new ScanCommand({
        TableName: table,
        FilterExpression: 'entity = :n',
        ExpressionAttributeValues: { ':n': { S: Notification.name } },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of (page.Items ?? []).map((i) => unmarshall(i)))
      if (Notification.is(item)) out.push({ item, c: notificationContent(item) ?? undefined });
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}

/** One stored object version (`versionId` undefined where the store keeps no versions). */
export interface StoredObject {
  key: string;
  versionId?: string;
}

/**
 * Every object version in the bucket (BUCKET_NAME at the time of the call), and whether the store
 * listed versions at all. The local S3 emulator (s3rver, infra/local/s3.ts) keeps no versions: it
 * refuses `ListObjectVersions` (405 MethodNotAllowed). So when the version listing is refused, or does
 * not cover the current objects, the current objects are listed instead (`versioned: false`): there,
 * every object has exactly one version, and that listing is complete. Against real S3 (a versioned
 * bucket, infra/stacks/data-stack.ts) the versions are listed, delete markers included.
 */
export async function storedObjects(): Promise<{ objects: StoredObject[]; versioned: boolean }> {
  const Bucket = bucketName();
  const versions: StoredObject[] = [];
  try {
    let keyMarker: string | undefined;
    let versionMarker: string | undefined;
    for (;;) {
      const page = await s3().send(
        new ListObjectVersionsCommand({ Bucket, KeyMarker: keyMarker, VersionIdMarker: versionMarker }),
      );
      for (const v of [...(page.Versions ?? []), ...(page.DeleteMarkers ?? [])])
        if (v.Key) versions.push({ key: v.Key, versionId: v.VersionId });
      if (!page.IsTruncated) break;
      keyMarker = page.NextKeyMarker;
      versionMarker = page.NextVersionIdMarker;
    }
  } catch {
    versions.length = 0;
  }
  const current: StoredObject[] = [];
  let token: string | undefined;
  do {
    const page = await s3().send(new ListObjectsV2Command({ Bucket, ContinuationToken: token }));
    for (const o of page.Contents ?? []) if (o.Key) current.push({ key: o.Key });
    token = page.NextContinuationToken;
  } while (token);
  // Versions listed must cover every current object; otherwise the store does not keep versions.
  const listed = new Set(versions.map((v) => v.key));
  if (versions.length && current.every((o) => listed.has(o.key))) return { objects: versions, versioned: true };
  return { objects: current, versioned: false };
}
