import {
  DeleteObjectsCommand,
  ListObjectVersionsCommand,
  type ListObjectVersionsCommandOutput,
  S3Client,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { eraseOldVersionsPage } from '../../shared/storage/erase-objects.ts';

/**
 * The old versions of the whole lists' documents an erasure removes (shared/storage/erase-objects.ts,
 * `eraseOldVersionsPage`): deployed, the bucket is versioned and every overwritten document stays as a
 * noncurrent version; the local emulator keeps none, so S3 is mocked here. A page erases the listed
 * versions that are not current (delete markers included), never a current one, and says where the
 * next page starts.
 */
const s3 = mockClient(S3Client);
afterEach(() => s3.reset());

const version = (Key: string, VersionId: string, IsLatest: boolean) => ({ Key, VersionId, IsLatest });

describe('erasing the old versions of documents, a page at a time', () => {
  it('erases the noncurrent versions of a page, keeps the current ones, and goes on from the markers', async () => {
    const pages: Partial<ListObjectVersionsCommandOutput>[] = [
      {
        Versions: [
          version('documents/roster.json.gz', 'r3', true),
          version('documents/roster.json.gz', 'r2', false),
          version('documents/roster.json.gz', 'r1', false),
        ],
        IsTruncated: true,
        NextKeyMarker: 'documents/roster.json.gz',
        NextVersionIdMarker: 'r1',
      },
      {
        Versions: [version('documents/attendance-2026-11-20.json.gz', 'a1', false)],
        DeleteMarkers: [version('documents/attendance-2026-11-20.json.gz', 'm1', true)],
        IsTruncated: false,
      },
    ];
    s3.on(ListObjectVersionsCommand).resolvesOnce(pages[0]).resolvesOnce(pages[1]);
    s3.on(DeleteObjectsCommand).resolves({});

    const first = await eraseOldVersionsPage('documents/', undefined, 3);
    expect(first).toEqual({ erased: 2, next: { key: 'documents/roster.json.gz', versionId: 'r1' } });
    const second = await eraseOldVersionsPage('documents/', first.next, 3);
    expect(second).toEqual({ erased: 1, next: undefined });

    const lists = s3.commandCalls(ListObjectVersionsCommand).map((c) => c.args[0].input);
    expect(lists.map((l) => [l.Prefix, l.MaxKeys, l.KeyMarker, l.VersionIdMarker])).toEqual([
      ['documents/', 3, undefined, undefined],
      ['documents/', 3, 'documents/roster.json.gz', 'r1'],
    ]);
    const deleted = s3.commandCalls(DeleteObjectsCommand).map((c) => c.args[0].input.Delete?.Objects);
    expect(deleted).toEqual([
      [
        { Key: 'documents/roster.json.gz', VersionId: 'r2' },
        { Key: 'documents/roster.json.gz', VersionId: 'r1' },
      ],
      [{ Key: 'documents/attendance-2026-11-20.json.gz', VersionId: 'a1' }],
    ]);
  });

  it('deletes nothing when every listed version is current, and fails the step on a refused deletion', async () => {
    s3.on(ListObjectVersionsCommand).resolves({ Versions: [version('documents/roster.json.gz', 'r9', true)] });
    expect(await eraseOldVersionsPage('documents/', undefined)).toEqual({ erased: 0, next: undefined });
    expect(s3.commandCalls(DeleteObjectsCommand)).toHaveLength(0);
    s3.reset();
    s3.on(ListObjectVersionsCommand).resolves({ Versions: [version('documents/roster.json.gz', 'r8', false)] });
    s3.on(DeleteObjectsCommand).resolves({ Errors: [{ Key: 'documents/roster.json.gz', Code: 'AccessDenied' }] });
    await expect(eraseOldVersionsPage('documents/', undefined)).rejects.toThrow(/AccessDenied/);
  });

  it('has nothing to do where versions are not kept (the local emulator refuses the listing)', async () => {
    s3.on(ListObjectVersionsCommand).rejects(Object.assign(new Error('not here'), { name: 'MethodNotAllowed' }));
    expect(await eraseOldVersionsPage('documents/', undefined)).toEqual({ erased: 0, next: undefined });
  });
});
