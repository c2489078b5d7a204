/**
 * How data rights find one person in a stored item, exactly (issue 33): never as a substring, so that
 * erasing `an@x` leaves `dan@x` alone and erasing "Pat" leaves "Patience" alone.
 *
 * - By id: a whole string value, a list or set member, a map key (or a `<word>_<id>` key, the
 *   directory's rows), a whole `#`-separated segment of a key-like value (`POSTS#AUTHOR#<id>`), or a
 *   whole `@[id]` token in text.
 * - By e-mail: a whole value (or `#` segment) equal to their address, trimmed and case-folded.
 * - Free text (the attributes each kind declares `text`, rules.ts: a post's content, a wish's message…)
 *   changes only at `@[id]` tokens: somebody else's words that merely equal or contain an id or an
 *   address are theirs.
 * - JSON text (the attributes a kind declares `json`: the change log's inline copy of its newest events)
 *   is opened and matched by the same rules.
 * - By name: never here. A display name is found only where the service put it next to the person's
 *   id (a notification's name spans, erasure.ts); by date of birth only on their own profile (deleted).
 */

/** Whom to find. */
export interface Needles {
  userId: string;
  email?: string;
}

/** Where in an item the rules differ: attributes (dotted paths from the item's top) of free text and of JSON text. */
export interface AttributeKinds {
  text?: readonly string[];
  json?: readonly string[];
}

const normalEmail = (e: string) => e.trim().toLowerCase();
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const tokenOf = (id: string) => new RegExp(`@\\[${escapeRegExp(id)}\\]`, 'g');

/** A replacement of the person in one item: the id by `to` (and the e-mail by `to` as well). */
export interface Replacement {
  needles: Needles;
  to: string;
}

/** A string (not free text) with the person replaced: whole value, whole `#` segments, `@[id]` tokens. */
function replaceInValue(v: string, { needles, to }: Replacement): string {
  const email = needles.email ? normalEmail(needles.email) : undefined;
  if (v === needles.userId || (email && normalEmail(v) === email)) return to;
  let out = v;
  if (out.includes('#'))
    out = out
      .split('#')
      .map((seg) => (seg === needles.userId || (email && seg.toLowerCase() === email) ? to : seg))
      .join('#');
  if (out.includes('@[')) out = out.replace(tokenOf(needles.userId), `@[${to}]`);
  return out;
}

/** A map key with the person replaced: as a value, or the `<word>_<id>` form. */
function replaceInKey(k: string, r: Replacement): string {
  const m = /^([A-Za-z]+)_(.+)$/.exec(k);
  if (m && m[2] === r.needles.userId) return `${m[1]}_${r.to}`;
  return replaceInValue(k, r);
}

/** Free text: only `@[id]` tokens. */
const replaceInText = (v: string, r: Replacement) =>
  v.includes('@[') ? v.replace(tokenOf(r.needles.userId), `@[${r.to}]`) : v;

/**
 * The value with the person replaced by the rules above. `kinds` names the item's free-text and JSON
 * attributes (paths from the value's top; list members share their list's path).
 */
export function replacePerson<T>(value: T, r: Replacement, kinds: AttributeKinds = {}): T {
  const text = new Set(kinds.text ?? []);
  const json = new Set(kinds.json ?? []);
  const visit = (v: unknown, path: string, inText: boolean): unknown => {
    const isText = inText || text.has(path);
    if (typeof v === 'string') {
      if (json.has(path)) {
        try {
          return JSON.stringify(visit(JSON.parse(v), '', false));
        } catch {
          // Not JSON after all: as a value.
        }
      }
      return isText ? replaceInText(v, r) : replaceInValue(v, r);
    }
    if (Array.isArray(v)) return v.map((x) => visit(x, path, isText));
    if (v instanceof Set) return new Set([...v].map((x) => visit(x, path, isText)));
    if (v instanceof Uint8Array) return v;
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.entries(v).map(([k, x]) => [
          isText ? k : replaceInKey(k, r),
          visit(x, path ? `${path}.${k}` : k, isText),
        ]),
      );
    return v;
  };
  return visit(value, '', false) as T;
}

/** A marker no stored value holds: replacing with it shows whether anything matched. */
const PROBE = '\u0000probe\u0000';

/** Whether the value carries the person by the rules above. */
export function carriesPerson(value: unknown, needles: Needles, kinds: AttributeKinds = {}): boolean {
  const probe = { needles, to: PROBE };
  const text = new Set(kinds.text ?? []);
  const json = new Set(kinds.json ?? []);
  const email = needles.email ? normalEmail(needles.email) : undefined;
  const hit = (s: string) => s !== replaceInValue(s, probe);
  const visit = (v: unknown, path: string, inText: boolean): boolean => {
    const isText = inText || text.has(path);
    if (typeof v === 'string') {
      if (json.has(path)) {
        try {
          return visit(JSON.parse(v), '', false);
        } catch {
          // Not JSON after all: as a value.
        }
      }
      if (isText) return v.includes('@[') && tokenOf(needles.userId).test(v);
      // Cheap first: neither the id nor the address anywhere in it.
      if (!v.includes(needles.userId) && !(email && v.toLowerCase().includes(email))) return false;
      return hit(v);
    }
    if (Array.isArray(v)) return v.some((x) => visit(x, path, isText));
    if (v instanceof Set) return [...v].some((x) => visit(x, path, isText));
    if (v instanceof Uint8Array) return false;
    if (v && typeof v === 'object')
      return Object.entries(v).some(
        ([k, x]) => (!isText && k !== replaceInKey(k, probe)) || visit(x, path ? `${path}.${k}` : k, isText),
      );
    return false;
  };
  return visit(value, '', false);
}

/** A key (pk, sk, index attribute) with the person's id replaced as a whole `#` segment. */
export const replaceInKeyValue = (key: string, userId: string, to: string) =>
  key
    .split('#')
    .map((seg) => (seg === userId ? to : seg))
    .join('#');
