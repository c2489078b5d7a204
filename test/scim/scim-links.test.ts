import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ScimUserSlot } from '../../shared/scim/entities.ts';
import { getLink, link, linksPage, unlink } from '../../shared/scim/links.ts';

/** The links' numbering (shared/scim/links.ts): 1…total without gaps, whatever is unlinked. */
describe('SCIM links', () => {
  it('keeps positions dense: an unlinked position takes the last link', async () => {
    const ids = Array.from({ length: 4 }, () => `links-${randomUUID()}`);
    for (const id of ids) await link(id, { externalId: `ext-${id}` });
    const before = await linksPage(1, 100_000);
    const positions = await Promise.all(ids.map(async (id) => (await getLink(id))!.position));
    expect(new Set(positions).size).toBe(4);

    const [, second] = ids;
    const last = ids.reduce((a, b) => ((positions[ids.indexOf(a)] ?? 0) > (positions[ids.indexOf(b)] ?? 0) ? a : b));
    const freed = (await getLink(second!))!.position;
    expect(await unlink(second!)).toBe(true);
    expect(await unlink(second!)).toBe(false);
    expect(await getLink(second!)).toBeUndefined();

    const after = await linksPage(1, 100_000);
    expect(after.total).toBe(before.total - 1);
    expect(after.userIds).toHaveLength(after.total);
    expect(new Set(after.userIds).size).toBe(after.total);
    expect(after.userIds).not.toContain(second);
    if (last !== second) {
      expect((await getLink(last))!.position).toBe(freed);
      expect((await ScimUserSlot.get({ position: freed }))!.userId).toBe(last);
    }
    // The freed externalId can be claimed again; a taken one cannot.
    await expect(link(`links-${randomUUID()}`, { externalId: `ext-${ids[0]}` })).rejects.toMatchObject({ status: 409 });
    await link(second!, { externalId: `ext-${second}` });
    expect((await getLink(second!))!.position).toBe(after.total + 1);
  });

  it('numbers concurrent links without gaps or repeats', async () => {
    const ids = Array.from({ length: 6 }, () => `links-${randomUUID()}`);
    await Promise.all(ids.map((id) => link(id, {})));
    const { total, userIds } = await linksPage(1, 100_000);
    expect(userIds).toHaveLength(total);
    expect(new Set(userIds).size).toBe(total);
    for (const id of ids) expect(userIds).toContain(id);
    await Promise.all(ids.map((id) => unlink(id)));
    const after = await linksPage(1, 100_000);
    expect(after.userIds).toHaveLength(after.total);
    for (const id of ids) expect(after.userIds).not.toContain(id);
  });
});
