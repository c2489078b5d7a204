/**
 * Read coalescing for stream connections that share a process (locally, every open stream; deployed,
 * each Lambda execution holds one stream, so nothing is shared): identical reads issued within `maxAgeMs`
 * share one request. A result is at most `maxAgeMs` old, the same staleness as polling that much less
 * often, so nothing here is needed for correctness; it only saves requests.
 */
const entries = new Map<string, { at: number; value: Promise<unknown> }>();

export function coalesced<T>(key: string, maxAgeMs: number, read: () => Promise<T>): Promise<T> {
  const now = Date.now();
  const hit = entries.get(key);
  if (hit && now - hit.at <= maxAgeMs) return hit.value as Promise<T>;
  if (entries.size > 500) for (const [k, e] of entries) if (now - e.at > maxAgeMs) entries.delete(k);
  const value = read();
  entries.set(key, { at: now, value });
  value.catch(() => {
    if (entries.get(key)?.value === value) entries.delete(key);
  });
  return value;
}
