import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { keyRing } from '../../shared/config/key-ring.ts';
import { personTags } from '../../shared/grievances/anonymity.ts';
import { Grievance, GrievanceSeen } from '../../shared/grievances/entities.ts';
import { getGrievance, raiseGrievance } from '../../shared/grievances/grievances.ts';
import { raiserOf } from '../../shared/grievances/notices.ts';
import { isRaiser, markRead } from '../../shared/grievances/read-state.ts';

/**
 * The grievance secret rotated (docs/deployment.md, "Rotating the secrets"): with a key ring, new
 * tags and seals are made with the new key and name it, while everything made with the original key
 * keeps being recognised and opened. Domain calls in this process, whose secret the test sets.
 */
const original = process.env.GRIEVANCE_SECRET!;
const next = `rotated-${randomUUID()}`;
const useRing = (...keys: string[]) => {
  process.env.GRIEVANCE_SECRET = keys.length === 1 ? keys[0] : JSON.stringify({ keys });
};
afterEach(() => {
  process.env.GRIEVANCE_SECRET = original;
});

const input = {
  subject: 'Rotation check',
  description: 'A grievance raised around a key rotation.',
  category: 'other' as const,
};
const stored = async (id: string) => (await Grievance.get({ id }, { consistent: true }))!;
/** How many grievances the person has seen, over every key of the ring (what the unread count subtracts). */
async function seen(userId: string): Promise<number> {
  const found = await GrievanceSeen.getMany(
    personTags(userId).map((personTag) => ({ personTag })),
    { consistent: true },
  );
  return found.reduce((n, c) => n + (c?.seen ?? 0), 0);
}

describe('rotating the grievance secret', () => {
  it('keeps raisers, readers and seals of the original key, and tags new items with the new key', async () => {
    const raiser = randomUUID();
    const reader = randomUUID();
    const before = await raiseGrievance(raiser, input);
    await markRead(reader, await stored(before.id));
    expect(await seen(reader)).toBe(1);

    useRing(next, original);
    const old = await stored(before.id);
    expect(old.raiserTag).not.toContain('.'); // made with the original key: stored form unchanged
    expect(isRaiser(raiser, old)).toBe(true);
    expect(raiserOf(old)).toBe(raiser);
    expect((await getGrievance(reader, before.id)).unread).toBe(false);
    // Reading again after the rotation neither adds a marker nor counts twice.
    await markRead(reader, old);
    expect(await seen(reader)).toBe(1);

    const after = await raiseGrievance(raiser, input);
    const fresh = await stored(after.id);
    const [current] = keyRing([next, original]);
    expect(fresh.raiserTag.startsWith(`${current.id}.`)).toBe(true);
    expect(fresh.raiserSeal.startsWith(`${current.id}.`)).toBe(true);
    expect(isRaiser(raiser, fresh)).toBe(true);
    expect(isRaiser(reader, fresh)).toBe(false);
    expect(raiserOf(fresh)).toBe(raiser);
    expect((await getGrievance(reader, after.id)).unread).toBe(true);
    await markRead(reader, fresh);
    expect((await getGrievance(reader, after.id)).unread).toBe(false);
    // Counted under the new key's counter: the sum the unread count subtracts.
    expect(await seen(reader)).toBe(2);
    expect(await seen(raiser)).toBe(2);

    // The original key alone cannot open or recognise what the new key made.
    useRing(original);
    expect(raiserOf(fresh)).toBeNull();
    expect(isRaiser(raiser, fresh)).toBe(false);
    expect(isRaiser(raiser, old)).toBe(true);
  });
});
