import { hashToken } from '../auth/tokens.ts';
import { isConditionFailure, write } from '../db/table.ts';
import { logger } from '../observability/logger.ts';
import { type PushPlatform, type PushTarget, pushTransport } from '../transports/push.ts';
import { PushToken, type PushTokenItem } from './entities.ts';

/*
 * Push token registrations (`PushToken`, entities.ts): one item per token, addressed by its SHA-256 (the
 * token itself is only handed to SNS, which keeps it in the platform endpoint); gsi1 lists a person's
 * enabled tokens for delivery. A token registered again by someone else moves to them (a shared device).
 */

/** Registrations kept per person; the least recently registered beyond this are retired. */
export const MAX_TOKENS_PER_PERSON = 20;

export const targetOf = (t: PushTokenItem): PushTarget => ({
  userId: t.userId,
  platform: t.platform,
  endpointArn: t.endpointArn,
});

export interface Registration {
  token: string;
  platform?: PushPlatform;
  userAgent?: string;
  previousToken?: string;
}

/**
 * Registers a token for the signed-in person, tied to the session that registers it (`sessionTokenHash`,
 * the session's key): signing out, revoking that session or its expiry ends push to the device.
 */
export async function registerPushToken(userId: string, sessionTokenHash: string, r: Registration): Promise<void> {
  if (r.previousToken !== undefined && r.previousToken !== r.token) await retirePushToken(userId, r.previousToken);
  const platform = r.platform ?? 'web';
  const tokenHash = hashToken(r.token);
  const existing = await PushToken.get({ tokenHash }, { consistent: true });
  // The endpoint belongs to the token (the device), whoever registered it before; a platform change needs a new one.
  const reusable = existing && existing.platform === platform ? existing.endpointArn : null;
  const endpointArn = await pushTransport().register({ userId, platform, token: r.token, endpointArn: reusable });
  const now = new Date().toISOString();
  const put = PushToken.put({
    tokenHash,
    userId,
    platform,
    userAgent: r.userAgent ?? null,
    endpointArn,
    sessionTokenHash,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
    actorId: userId,
  });
  await write(put);
  if (existing?.endpointArn && existing.endpointArn !== endpointArn) await forgetEndpoint(targetOf(existing));
  await retireBeyondCap(userId);
}

/** Removes a registration, only when it is the caller's (`previousToken`, DELETE). */
export async function retirePushToken(userId: string, token: string): Promise<void> {
  const existing = await PushToken.get({ tokenHash: hashToken(token) }, { consistent: true });
  if (!existing || existing.userId !== userId) return;
  await removeRegistration(existing);
}

async function removeRegistration(t: PushTokenItem): Promise<void> {
  await write(PushToken.remove(t));
  await forgetEndpoint(targetOf(t));
}

/**
 * Removes a registration found unfit for delivery, unless it was registered again meanwhile (by a new
 * session on the same device: then it is fit again and stays).
 */
export async function removeStaleRegistration(t: PushTokenItem): Promise<void> {
  try {
    await write(
      PushToken.remove(t, {
        ConditionExpression: 'updatedAt = :seen',
        ExpressionAttributeValues: { ':seen': t.updatedAt },
      }),
    );
  } catch (err) {
    if (isConditionFailure(err)) return;
    throw err;
  }
  await forgetEndpoint(targetOf(t));
}

/** Deletes a removed registration's platform endpoint (data rights' erasure removes the item itself). */
export const forgetEndpointOf = (t: PushTokenItem): Promise<void> => forgetEndpoint(targetOf(t));

async function forgetEndpoint(target: PushTarget): Promise<void> {
  await pushTransport()
    .unregister(target)
    .catch((error) => logger.warn('could not delete a push endpoint', { error: error as Error }));
}

/** A person's enabled registrations, newest first (bounded by MAX_TOKENS_PER_PERSON). */
export async function activePushTokens(userId: string): Promise<PushTokenItem[]> {
  return PushToken.queryAll({ index: 'byPerson', key: { userId }, forward: false });
}

async function retireBeyondCap(userId: string): Promise<void> {
  const tokens = await activePushTokens(userId);
  for (const t of tokens.slice(MAX_TOKENS_PER_PERSON)) await removeRegistration(t);
}

/** The platform said the endpoint is dead: keep the item (for the record) but stop delivering to it. */
export async function disablePushToken(tokenHash: string): Promise<void> {
  const found = await PushToken.get({ tokenHash }, { consistent: true });
  if (!found || found.disabledAt) return;
  const seen = { ConditionExpression: 'updatedAt = :seen', ExpressionAttributeValues: { ':seen': found.updatedAt } };
  // Registered again meanwhile (a new session on the device): fit again, left as it is.
  await write(PushToken.change(found, { ...found, disabledAt: new Date().toISOString() }, seen)).catch((e) =>
    isConditionFailure(e) ? undefined : Promise.reject(e),
  );
}
