import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signIn } from '../../shared/access/accounts.ts';
import { db } from '../../shared/db/client.ts';
import { admin, api, PASSWORD, uniq } from '../support/api.ts';

/*
 * Sign-in must not tell which addresses exist by the work it does: a known address with a wrong
 * password and an unknown address make the same DynamoDB requests (same commands, same number of
 * keys) and the same scrypt derivation. Counted rather than timed: wall time on a shared machine
 * says little, the work done is what a timing attack measures.
 */
const derivations = vi.hoisted(() => [] as { n: number; r: number; p: number }[]);
vi.mock('node:crypto', async (original) => {
  const actual = await original<typeof import('node:crypto')>();
  const scrypt = ((...args: any[]) => {
    const options = args[3];
    if (options && typeof options === 'object') derivations.push({ n: options.N, r: options.r, p: options.p });
    return (actual.scrypt as any)(...args);
  }) as typeof actual.scrypt;
  return { ...actual, default: { ...actual, scrypt }, scrypt };
});

/** The requests one sign-in makes: command and how many keys it reads or writes (not which). */
async function workOf(email: string, password: string) {
  const client = db();
  const send = vi.spyOn(client, 'send');
  derivations.length = 0;
  const outcome = await signIn(email, password, null, Date.now()).then(
    () => 'signed in',
    (err: Error) => err.message,
  );
  const requests = send.mock.calls.map(([command]: any[]) => {
    const input = command.input ?? {};
    const keys = input.RequestItems
      ? Object.values(input.RequestItems as Record<string, { Keys?: unknown[] }>).reduce(
          (n, r) => n + (r.Keys?.length ?? 0),
          0,
        )
      : 1;
    return `${command.constructor.name}×${keys}`;
  });
  send.mockRestore();
  return { outcome, requests, scrypt: [...derivations] };
}

afterEach(() => vi.restoreAllMocks());

describe('sign-in does the same work for known and unknown addresses', () => {
  it('same requests and the same scrypt for a wrong password and an address nobody has', async () => {
    // Created but never signed in, so neither address has a throttle window yet.
    const email = `known-${uniq()}@example.com`;
    const created = await api('POST', '/admin/members', {
      token: (await admin()).token,
      body: { name: `Known ${uniq()}`, email, password: PASSWORD },
    });
    expect(created.status).toBe(201);
    const known = await workOf(email, 'wrong-password-1');
    const unknown = await workOf(`nobody-${randomUUID()}@example.com`, 'wrong-password-1');
    expect(known.outcome).toBe(unknown.outcome);
    expect(known.requests.length).toBeGreaterThan(0);
    expect(unknown.requests).toEqual(known.requests);
    expect(known.scrypt).toHaveLength(1);
    expect(unknown.scrypt).toEqual(known.scrypt);
  });
});
