import { SESSION_DAYS } from '../auth/sessions.ts';
import { API_PREFIX } from '../config/api-prefix.ts';

/** The web client's session cookie (its name is ours to choose). */
export const SESSION_COOKIE = 'wcs_session';

export function readCookie(cookies: string[] | undefined, name: string): string | undefined {
  for (const c of cookies ?? []) {
    for (const part of c.split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
    }
  }
  return undefined;
}

/** HttpOnly, SameSite=Lax, Path=/, Secure when served over https. */
export function sessionCookie(token: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_DAYS * 24 * 3600}${secure ? '; Secure' : ''}`;
}

export const clearSessionCookie = (secure: boolean) =>
  `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`;

/** The cookie that binds a single sign-on to the browser that started it (docs/sso.md). */
export const SSO_BROWSER_COOKIE = 'wcs_sso';
/** Sent only to the callback, so no other route ever sees it. */
const SSO_COOKIE_PATH = `${API_PREFIX}/auth/sso/callback`;

/** HttpOnly and SameSite=Lax (the provider's redirect back is a top-level GET, which Lax lets through). */
export const ssoBrowserCookie = (binding: string, maxAgeSeconds: number, secure: boolean) =>
  `${SSO_BROWSER_COOKIE}=${binding}; Path=${SSO_COOKIE_PATH}; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;

export const clearSsoBrowserCookie = (secure: boolean) => ssoBrowserCookie('', 0, secure);

/** A request's cookie by name, from payload 2.0's `cookies` or a raw `Cookie` header. */
export const requestCookie = (
  event: { cookies?: string[]; headers?: Record<string, string | undefined> },
  name: string,
): string | undefined =>
  readCookie(event.cookies ?? (event.headers?.cookie ? [event.headers.cookie] : undefined), name);
