import { ScimError } from './errors.ts';

/**
 * The filters provisioning clients send (RFC 7644 §3.4.2.2): `attribute eq "value"` comparisons joined
 * with `and`, attribute names and operators case-insensitive. Each is an exact-value lookup; anything
 * else answers 400 `invalidFilter`.
 */
export type Equalities = Map<string, string>;

const COMPARISON = /^\s*([A-Za-z][\w.:-]*)\s+eq\s+("(?:[^"\\]|\\.)*")\s*(?:\band\b|$)/i;

export function parseFilter(filter: string | undefined, attributes: readonly string[]): Equalities {
  const found: Equalities = new Map();
  if (filter === undefined || filter.trim() === '') return found;
  let rest = filter;
  while (rest.trim() !== '') {
    const m = COMPARISON.exec(rest);
    if (!m) throw unsupported(filter, attributes);
    const name = attributes.find((a) => a.toLowerCase() === m[1]!.toLowerCase());
    if (!name) throw unsupported(filter, attributes);
    let value: string;
    try {
      value = JSON.parse(m[2]!) as string;
    } catch {
      throw unsupported(filter, attributes);
    }
    if (found.has(name) && found.get(name) !== value)
      found.set(name, '\u0000'); // never equal: nothing matches
    else found.set(name, value);
    rest = rest.slice(m[0].length);
  }
  return found;
}

const unsupported = (filter: string, attributes: readonly string[]) =>
  new ScimError(
    400,
    `Unsupported filter ${JSON.stringify(filter.slice(0, 200))}: use ${attributes.map((a) => `${a} eq "…"`).join(' or ')}, joined with and.`,
    'invalidFilter',
  );

/** `startIndex` (1-based, less than 1 read as 1) and `count` (0…max, absent = max), as RFC 7644 §3.4.2.4 reads them. */
export function pageOf(startIndex: string | undefined, count: string | undefined, max: number) {
  const int = (s: string | undefined, name: string) => {
    if (s === undefined) return undefined;
    if (!/^-?\d{1,9}$/.test(s.trim())) throw new ScimError(400, `${name} must be an integer.`, 'invalidValue');
    return Number(s);
  };
  const start = Math.max(1, int(startIndex, 'startIndex') ?? 1);
  const c = Math.min(max, Math.max(0, int(count, 'count') ?? max));
  return { startIndex: start, count: c };
}
