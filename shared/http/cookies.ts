import { SESSION_DAYS } from '../auth/sessions.ts';

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
