/**
 * The subset of Lambda event-filter patterns the project uses, so the local stream poller drops the
 * same records the deployed event source mapping drops. A pattern object matches when every key
 * matches; a list of conditions matches when any condition does (exact values, `prefix`,
 * `anything-but`, `exists`).
 */
type Pattern = { [key: string]: Pattern | Condition[] };
type Condition =
  | string
  | number
  | boolean
  | null
  | { prefix?: string; exists?: boolean; 'anything-but'?: unknown[] | string | number };

export function matchesPattern(pattern: Pattern, value: unknown): boolean {
  for (const [key, expected] of Object.entries(pattern)) {
    const actual = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    if (Array.isArray(expected)) {
      if (!expected.some((c) => matchesCondition(c, actual))) return false;
    } else if (actual === undefined) {
      // A nested pattern on a missing object matches only if every leaf there asks for absence.
      if (!onlyAbsence(expected)) return false;
    } else if (!matchesPattern(expected, actual)) {
      return false;
    }
  }
  return true;
}

function onlyAbsence(p: Pattern): boolean {
  return Object.values(p).every((v) =>
    Array.isArray(v)
      ? v.some((c) => typeof c === 'object' && c !== null && 'exists' in c && c.exists === false)
      : onlyAbsence(v),
  );
}

/**
 * Lambda (like EventBridge) flattens a record into leaf paths before matching, so a condition only ever
 * sees leaf values: an object at the path is no value there (`exists: true` fails, `exists: false` holds,
 * which is why DynamoDB patterns must name the type, `{ anon: { BOOL: [...] } }`), and an array offers
 * each of its leaf elements.
 */
const isLeaf = (v: unknown) => v === null || typeof v !== 'object';
function leafValues(actual: unknown): unknown[] {
  if (actual === undefined) return [];
  if (Array.isArray(actual)) return actual.filter(isLeaf);
  return isLeaf(actual) ? [actual] : [];
}

function matchesCondition(c: Condition, actual: unknown): boolean {
  const values = leafValues(actual);
  if (c !== null && typeof c === 'object' && 'exists' in c) return c.exists ? values.length > 0 : values.length === 0;
  return values.some((v) => matchesValue(c, v));
}

function matchesValue(c: Condition, actual: unknown): boolean {
  if (c !== null && typeof c === 'object') {
    if (c.prefix !== undefined) return typeof actual === 'string' && actual.startsWith(c.prefix);
    if (c['anything-but'] !== undefined) {
      const list = Array.isArray(c['anything-but']) ? c['anything-but'] : [c['anything-but']];
      return !list.includes(actual as never);
    }
    return false;
  }
  return actual === c;
}

export const matchesAny = (patterns: Record<string, unknown>[], value: unknown) =>
  patterns.length === 0 || patterns.some((p) => matchesPattern(p as Pattern, value));
