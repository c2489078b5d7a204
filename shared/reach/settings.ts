import { write } from '../db/table.ts';
import { invalid } from '../errors.ts';
import { ReachSettings, ReadReceiptChoice } from './entities.ts';

/** The company's settings of reach (docs/reach.md): kept as one item, changed by super admins. */
export const DEFAULT_THRESHOLD = 5;
export const MIN_THRESHOLD = 3;
export const MAX_THRESHOLD = 1000;

export interface ReachSettingsView {
  suppressionThreshold: number;
  readReceipts: boolean;
  updatedAt: string | null;
}

export async function reachSettings(): Promise<ReachSettingsView> {
  const s = await ReachSettings.get({}, { consistent: true });
  return {
    suppressionThreshold: Math.max(MIN_THRESHOLD, s?.suppressionThreshold ?? DEFAULT_THRESHOLD),
    readReceipts: s?.readReceipts ?? false,
    updatedAt: s?.updatedAt ?? null,
  };
}

export async function updateReachSettings(
  actorId: string,
  patch: { suppressionThreshold?: number; readReceipts?: boolean },
): Promise<ReachSettingsView> {
  const t = patch.suppressionThreshold;
  if (t !== undefined && (!Number.isInteger(t) || t < MIN_THRESHOLD || t > MAX_THRESHOLD))
    throw invalid([`suppressionThreshold: must be a whole number from ${MIN_THRESHOLD} to ${MAX_THRESHOLD}`]);
  const before = await reachSettings();
  const after = {
    suppressionThreshold: t ?? before.suppressionThreshold,
    readReceipts: patch.readReceipts ?? before.readReceipts,
    updatedAt: new Date().toISOString(),
    actorId,
  };
  await write(ReachSettings.put(after), { returnValues: 'NONE' });
  return {
    suppressionThreshold: after.suppressionThreshold,
    readReceipts: after.readReceipts,
    updatedAt: after.updatedAt,
  };
}

/** Whether a person opted out of read receipts (absent: not). */
export async function readReceiptChoice(userId: string): Promise<{ optedOut: boolean; updatedAt: string | null }> {
  const c = await ReadReceiptChoice.get({ userId }, { consistent: true });
  return { optedOut: c?.optedOut ?? false, updatedAt: c?.updatedAt ?? null };
}

export async function setReadReceiptChoice(userId: string, optedOut: boolean) {
  const updatedAt = new Date().toISOString();
  await write(ReadReceiptChoice.put({ userId, optedOut, updatedAt }), { returnValues: 'NONE' });
  return { optedOut, updatedAt };
}
