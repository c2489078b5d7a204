import { type Condition, PRESENT, type UpdateParts } from '../db/entity.ts';
import { isConditionFailure, type TransactItem, write } from '../db/table.ts';
import { tooMany } from '../errors.ts';
import { PasswordCheckThrottle, SignInThrottle, type ThrottleWindow } from './entities.ts';

/** At most this many password evaluations per key in one window (docs/security.md). */
export const THROTTLE_LIMIT = 5;
export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;

/**
 * One throttle item per address or person (`ThrottleWindow`, entities.ts). `taken` counts every
 * evaluation of the window (taken before the password is compared); `sinceReset` counts those since
 * the last success, which sets `resetAt`. The window is fixed from its first attempt: attempts while
 * it is full do not extend it, so nobody can lock a person out for longer than one window at a time.
 */
export interface Throttle {
  /** The window as stored (consistent read). */
  read: () => Promise<ThrottleWindow | undefined>;
  /** Opens a window (the whole item). */
  open: (window: ThrottleWindow, condition: Condition) => TransactItem;
  update: (parts: UpdateParts) => TransactItem;
}

/** Sign-in attempts for one (lower-case) e-mail address. */
export const signInThrottle = (email: string): Throttle => ({
  read: () => SignInThrottle.get({ email }, { consistent: true }),
  open: (window, condition) => SignInThrottle.put({ ...window, email }, condition),
  update: (parts) => SignInThrottle.update({ email }, parts),
});

/** Checks of one signed-in person's current password. */
export const passwordCheckThrottle = (userId: string): Throttle => ({
  read: () => PasswordCheckThrottle.get({ userId }, { consistent: true }),
  open: (window, condition) => PasswordCheckThrottle.put({ ...window, userId }, condition),
  update: (parts) => PasswordCheckThrottle.update({ userId }, parts),
});

const minutes = (ms: number) => {
  const m = Math.max(1, Math.ceil(ms / 60000));
  return `${m} minute${m === 1 ? '' : 's'}`;
};

/**
 * Takes one password evaluation for `key` before the caller compares the password, or throws 429 with
 * `Retry-After`. The count moves atomically (a conditional ADD), so concurrent attempts cannot all read
 * a count below the limit and all be evaluated: a burst gets at most `THROTTLE_LIMIT` evaluations.
 *
 * `receivedAt` is when the request arrived. A success forgives the attempts before it, but only for
 * attempts that arrived after it answered; attempts already under way (sent in the same burst) are
 * judged against the whole window's count, so a right guess inside a burst frees no slots for the rest.
 */
export async function takeAttempt(throttle: Throttle, receivedAt: number, refusal: string): Promise<void> {
  const now = Date.now();
  const cutoff = now - THROTTLE_WINDOW_MS;
  // The usual case first: no window under way (none yet, or an ended one TTL has not removed), so
  // this attempt opens one. Then counting in the live window; then the refusal. A window that ends
  // between those steps only sends the loop round again.
  for (let round = 0; round < 3; round++) {
    try {
      await write(
        throttle.open(
          { windowStart: now, taken: 1, sinceReset: 1, ttl: Math.floor((now + THROTTLE_WINDOW_MS) / 1000) + 3600 },
          {
            ConditionExpression: 'attribute_not_exists(pk) OR windowStart <= :cutoff',
            ExpressionAttributeValues: { ':cutoff': cutoff },
          },
        ),
      );
      return;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
    try {
      await write(
        throttle.update({
          UpdateExpression: 'ADD taken :one, sinceReset :one',
          ConditionExpression:
            'windowStart > :cutoff AND (taken < :limit OR (resetAt < :received AND sinceReset < :limit))',
          ExpressionAttributeValues: {
            ':one': 1,
            ':cutoff': cutoff,
            ':limit': THROTTLE_LIMIT,
            ':received': receivedAt,
          },
        }),
        { returnValues: 'NONE' },
      );
      return;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
    const live = await throttle.read();
    if (live && live.windowStart > cutoff) {
      // Read the clock again: another request may have opened the window after this one began.
      const wait = Math.min(live.windowStart + THROTTLE_WINDOW_MS - Date.now(), THROTTLE_WINDOW_MS);
      throw tooMany(`${refusal} Try again in ${minutes(wait)}.`, wait / 1000);
    }
  }
  throw tooMany(`${refusal} Try again in a minute.`, 60);
}

/** After a right password: the attempts of the window so far no longer count for attempts arriving from now on. */
export async function forgiveAttempts(throttle: Throttle): Promise<void> {
  await write(
    throttle.update({
      UpdateExpression: 'SET sinceReset = :zero, resetAt = :now',
      ...PRESENT,
      ExpressionAttributeValues: { ':zero': 0, ':now': Date.now() },
    }),
    { returnValues: 'NONE' },
  ).catch((err) => {
    if (!isConditionFailure(err)) throw err;
  });
}
