import { describe, expect, it } from 'vitest';
import { SignInThrottle } from '../../shared/auth/entities.ts';
import { THROTTLE_LIMIT, THROTTLE_WINDOW_MS } from '../../shared/auth/throttle.ts';
import { write } from '../../shared/db/table.ts';
import { type ApiResponse, api, newMember, PASSWORD } from '../support/api.ts';

// The throttling rule (docs/security.md): at most five password evaluations per address, or per
// account on change-password, in a fixed 15-minute window, however the attempts are timed.

const signInRaw = (email: string, password: string) =>
  api('POST', '/auth/sign-in/email', { body: { email, password } });

const statuses = (answers: ApiResponse[]) => answers.map((r) => r.status);
const count = (answers: ApiResponse[], status: number) => answers.filter((r) => r.status === status).length;

/** A refusal: the common error body with its code, and a Retry-After within the window. */
function expectThrottled(res: ApiResponse) {
  expect(res.status).toBe(429);
  expect(res.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests', code: 'TOO_MANY_REQUESTS' });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(THROTTLE_WINDOW_MS / 1000);
}

describe('sign-in throttling bounds password evaluations, however the attempts are timed', () => {
  it('gives a burst of 50 concurrent wrong passwords exactly five evaluations; the rest are 429 with Retry-After', async () => {
    const m = await newMember();
    const answers = await Promise.all(Array.from({ length: 50 }, () => signInRaw(m.email, 'wrong-password-x')));
    expect(statuses(answers).every((s) => s === 401 || s === 429)).toBe(true);
    expect(count(answers, 401)).toBe(THROTTLE_LIMIT);
    for (const r of answers.filter((a) => a.status === 429)) expectThrottled(r);
    // The window is full: the right password is not even compared now.
    expectThrottled(await signInRaw(m.email, PASSWORD));
  });

  it('lets the right password hidden in a burst of 49 wrong ones in only when it was among the first five evaluations', async () => {
    const m = await newMember();
    const attempts = Array.from({ length: 50 }, (_, i) => (i === 37 ? PASSWORD : `wrong-password-${i}`));
    const answers = await Promise.all(attempts.map((p) => signInRaw(m.email, p)));
    const evaluated = answers.filter((r) => r.status !== 429);
    // The invariant: five evaluations at most, whichever of them the right one was.
    expect(evaluated.length).toBeLessThanOrEqual(THROTTLE_LIMIT);
    expect(evaluated.every((r) => r.status === 401 || r.status === 200)).toBe(true);
    expect(answers.filter((r, i) => r.status === 200 && attempts[i] !== PASSWORD)).toEqual([]);
    for (const r of answers.filter((a) => a.status === 429)) expectThrottled(r);
  });

  it('keeps the window fixed from its first attempt: refused attempts do not extend it, and it ends', async () => {
    const m = await newMember();
    await Promise.all(Array.from({ length: THROTTLE_LIMIT + 3 }, () => signInRaw(m.email, 'wrong-password-x')));
    const window = () => SignInThrottle.get({ email: m.email }, { consistent: true });
    const opened = (await window())!.windowStart;
    expectThrottled(await signInRaw(m.email, 'wrong-password-x'));
    expect((await window())!.windowStart).toBe(opened);
    // Fifteen minutes later (the window moved back rather than the clock forward) the person gets in.
    await write(
      SignInThrottle.update(
        { email: m.email },
        {
          UpdateExpression: 'SET windowStart = :w',
          ExpressionAttributeValues: { ':w': opened - THROTTLE_WINDOW_MS },
        },
      ),
    );
    expect((await signInRaw(m.email, PASSWORD)).status).toBe(200);
  });
});

describe('change-password throttling, per account', () => {
  const change = (token: string, currentPassword: string) =>
    api('POST', '/auth/change-password', { token, body: { currentPassword, newPassword: 'never-set-password-1' } });

  it('gives ten concurrent wrong current passwords five evaluations (400) and refuses the rest with 429', async () => {
    const m = await newMember();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => change(m.token, `wrong-current-${i}`)));
    expect(statuses(answers).every((s) => s === 400 || s === 429)).toBe(true);
    expect(count(answers, 400)).toBe(THROTTLE_LIMIT);
    for (const r of answers.filter((a) => a.status === 429)) expectThrottled(r);
    for (const r of answers.filter((a) => a.status === 400)) expect(r.body.code).toBe('INVALID_PASSWORD');
    // The right current password is not compared either until the window ends, so it stays unchanged.
    expectThrottled(await change(m.token, PASSWORD));
    expect((await signInRaw(m.email, PASSWORD)).status).toBe(200);
    // Another account is not affected.
    const other = await newMember();
    expect((await change(other.token, 'wrong-current-x')).status).toBe(400);
  });

  it('lets a right current password hidden in a burst of wrong ones in only among the first five evaluations', async () => {
    const m = await newMember();
    const attempts = Array.from({ length: 20 }, (_, i) => (i === 13 ? PASSWORD : `wrong-current-${i}`));
    const answers = await Promise.all(attempts.map((p) => change(m.token, p)));
    expect(answers.filter((r) => r.status !== 429).length).toBeLessThanOrEqual(THROTTLE_LIMIT);
    expect(answers.filter((r, i) => r.status === 200 && attempts[i] !== PASSWORD)).toEqual([]);
  });
});
