import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataExport } from '../../shared/data-rights/entities.ts';
import { exportStep } from '../../shared/data-rights/export.ts';
import { newLease } from '../../shared/data-rights/lease.ts';
import { newSortableId } from '../../shared/db/ids.ts';
import { putMany, write } from '../../shared/db/table.ts';
import { Post } from '../../shared/feed/entities.ts';
import { api, newMember } from '../support/api.ts';
import { plainPost } from '../support/post-fields.ts';
import { runtimeOfItsOwn, type SeededCompany } from '../support/seeded-company.ts';

/**
 * A person with many items (issue 28: "a person with 10,000 posts must not hit a function's limit"):
 * the export is worked in steps of bounded pages, each its own run of the worker (as separate
 * invocations would), its finds gathered into few parts, and the document holds every item.
 */
const POSTS = 3_000;

// Its jobs walk the whole table: a table of its own (test/support/seeded-company.ts).
let runtime: SeededCompany;
beforeAll(async () => {
  runtime = await runtimeOfItsOwn();
}, 120_000);
afterAll(() => runtime?.stop());

describe('an export of a person with many items', () => {
  it('is made in bounded steps, in few parts, and holds every item', async () => {
    const m = await newMember();
    const at = new Date().toISOString();
    // Written in bulk, as a long-time poster's posts would be there (the list entries do not matter here).
    const posts = Array.from({ length: POSTS }, (_, i) =>
      Post.item(
        plainPost({
          id: newSortableId(),
          authorId: m.id,
          content: `Post ${i} by a prolific member, with some words to give it a body of a realistic size.`,
          createdAt: at,
        }),
      ),
    );
    await putMany(posts);

    const started = await api('POST', '/users/me/data-export', { token: m.token });
    expect(started.status).toBe(201);
    // Each step is its own run (a new lease, the job read afresh), as separate invocations would be.
    let runs = 0;
    for (; runs < 200; runs++) {
      const job = (await DataExport.get({ id: started.body.id }, { consistent: true }))!;
      if (job.status === 'ready') break;
      const lease = newLease();
      await write(
        DataExport.update(
          { id: job.id },
          { UpdateExpression: 'SET leaseUntil = :l', ExpressionAttributeValues: { ':l': lease } },
        ),
      );
      await exportStep({ ...job, leaseUntil: lease }, lease);
    }
    const job = (await DataExport.get({ id: started.body.id }, { consistent: true }))!;
    expect(job.status).toBe('ready');
    // Steps of at most 25 pages of 200 items (plus the assembly): the walk's runs, its finds in few parts.
    expect(job.walk.pages).toBeGreaterThanOrEqual(Math.ceil(POSTS / 200));
    const walks = Math.ceil(job.walk.pages / 25);
    expect(runs).toBeGreaterThanOrEqual(walks + 1);
    // A step also ends once it holds a part's worth (1 MB) of finds.
    expect(runs).toBeLessThanOrEqual(walks + 1 + Math.ceil(POSTS / 2_000));
    expect(job.parts).toBeLessThanOrEqual(Math.ceil(POSTS / 2_000) + Math.ceil(job.walk.pages / 25));
    expect(job.counts.posts).toBe(POSTS);

    const ready = await api('GET', `/users/me/data-export/${started.body.id}`, { token: m.token });
    const document = (await (await fetch(ready.body.url)).json()) as { sections: Record<string, { id: string }[]> };
    expect(new Set(document.sections.posts.map((p) => p.id))).toEqual(new Set(posts.map((p) => p.id)));
  }, 300_000);
});
