/**
 * Link fields that take "a handle or a full URL" are rendered by clients as links, so a value that a
 * browser would open with another scheme (`javascript:`, `data:`, `vbscript:`) would run or show
 * whatever it carries. A value either carries one of the allowed schemes or none at all (a handle,
 * `github.com/someone`).
 *
 * The scheme is read the way a browser reads an `href`: leading spaces and control characters are
 * dropped, and tabs and line breaks anywhere are ignored (`java\tscript:` is `javascript:`).
 */
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

export function linkScheme(value: string): string | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters browsers drop are the point
  const asBrowsersRead = value.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+/, '');
  const m = SCHEME.exec(asBrowsersRead);
  return m ? `${m[1].toLowerCase()}:` : null;
}

export const WEB_SCHEMES = ['http:', 'https:'] as const;

/** True when `value` is a bare handle or carries one of `allowed` (lower case, with the colon). */
export function hasAllowedScheme(value: string, allowed: readonly string[] = WEB_SCHEMES): boolean {
  const scheme = linkScheme(value);
  return scheme === null || allowed.includes(scheme);
}

/** What a view shows of a stored link: values saved before the rule above are shown as empty. */
export const shownLink = (value: string | null | undefined, allowed: readonly string[] = WEB_SCHEMES): string =>
  value && hasAllowedScheme(value, allowed) ? value : '';
