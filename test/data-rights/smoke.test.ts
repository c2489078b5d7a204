import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { runDataRightsWork } from '../../shared/data-rights/work.ts';
import { db } from '../../shared/db/client.ts';
import { admin, api, newMember } from '../support/api.ts';

async function scanAll(): Promise<Record<string, any>[]> {
  const items: Record<string, any>[] = [];
  let start: Record<string, any> | undefined;
  do {
    const page = await db().send(
      new ScanCommand({ TableName: process.env.TABLE_NAME!, ExclusiveStartKey: start, ConsistentRead: true }),
    );
    items.push(...((page.Items ?? []) as Record<string, any>[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

describe('data rights smoke', () => {
  it('exports and erases', async () => {
    const a = await admin();
    const s = await newMember();
    const o = await newMember();
    const post = await api('POST', '/posts', { token: s.token, body: { content: `hello @[${o.id}]` } });
    expect(post.status).toBe(201);
    const other = await api('POST', '/posts', { token: o.token, body: { content: `hi @[${s.id}]` } });
    expect((await api('POST', `/posts/${other.body.id}/upvote`, { token: s.token, body: {} })).status).toBe(200);
    expect((await api('POST', `/posts/${post.body.id}/upvote`, { token: o.token, body: {} })).status).toBe(200);
    expect(
      (await api('POST', `/posts/${other.body.id}/comments`, { token: s.token, body: { content: 'c' } })).status,
    ).toBe(201);
    const started = await api('POST', '/users/me/data-export', { token: s.token });
    expect(started.status).toBe(201);
    await runDataRightsWork();
    const ready = await api('GET', `/users/me/data-export/${started.body.id}`, { token: s.token });
    expect(ready.body.status).toBe('ready');
    const doc = (await (await fetch(ready.body.url)).json()) as any;
    console.log(Object.keys(doc.sections), ready.body.counts);
    expect(
      (await api('PATCH', `/admin/members/${s.id}/status`, { token: a.token, body: { status: 'deactivated' } })).status,
    ).toBe(200);
    const erasing = await api('DELETE', `/admin/members/${s.id}`, { token: a.token });
    expect(erasing.status).toBe(200);
    await runDataRightsWork();
    await runDataRightsWork({ now: () => Date.now() + 10 * 60_000 });
    const done = await api('GET', `/admin/erasures/${erasing.body.id}`, { token: a.token });
    console.log(done.body);
    expect(done.body.status).toBe('done');
    const left = (await scanAll()).filter(
      (i) => JSON.stringify(i).includes(s.id) || JSON.stringify(i).toLowerCase().includes(s.email),
    );
    expect(left.map((i) => `${i.entity} ${i.pk} ${i.sk}`)).toEqual([]);
  }, 120_000);
});
