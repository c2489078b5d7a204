import type * as z from '../util/zod.ts';
import { BadRequestError } from './errors.ts';

/** Turns zod issues into the field errors clients show as given (`message` as an array). */
export function fieldErrors(error: z.core.$ZodError, where: 'body' | 'query'): string[] {
  return error.issues.map((issue) => {
    const field = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys.join(', ');
      return where === 'query'
        ? `unknown query parameter: ${keys}`
        : `${field ? `${field}: ` : ''}unknown field: ${keys}`;
    }
    return field ? `${field}: ${issue.message}` : issue.message;
  });
}

export function parseWith<S extends z.ZodMiniType>(schema: S, value: unknown, where: 'body' | 'query'): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new BadRequestError(fieldErrors(result.error, where));
  return result.data;
}

/**
 * Parses a raw query string (payload 2.0 joins repeated values with commas in
 * `queryStringParameters`, so the raw string is the only place a repetition shows). A repeated
 * parameter is a 400.
 */
export function parseRawQuery(raw: string | undefined): Record<string, string> {
  // Without a prototype, `__proto__=x` is a parameter like any other (an unknown one), not a setter.
  const out: Record<string, string> = Object.create(null);
  if (!raw) return out;
  for (const part of raw.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const decode = (s: string) => {
      try {
        return decodeURIComponent(s.replace(/\+/g, ' '));
      } catch {
        throw new BadRequestError(['query string is not valid URL encoding']);
      }
    };
    const name = decode(eq < 0 ? part : part.slice(0, eq));
    const value = decode(eq < 0 ? '' : part.slice(eq + 1));
    if (Object.hasOwn(out, name)) throw new BadRequestError([`query parameter ${name} is given more than once`]);
    out[name] = value;
  }
  return out;
}
