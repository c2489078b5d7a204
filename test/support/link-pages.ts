import { expect } from 'vitest';
import { api } from './api.ts';

/**
 * Every answer of a list that pages with `Link: <…>; rel="next"` (meetings, leave requests), following it
 * until an answer comes without one: each answer a 200 with an array, each next link of that form and to
 * the same list (`nextPath`), and fewer than 20 pages. The window tests of both lists read them alike.
 */
export async function allLinkPages<T = { id: string }>(path: string, token: string, nextPath: RegExp) {
  const pages: T[][] = [];
  let next: string | null = path;
  while (next) {
    const res = await api('GET', next, { token });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    pages.push(res.body);
    const link = res.headers.get('link');
    if (!link) break;
    const m = /^<([^>]+)>; rel="next"$/.exec(link);
    expect(m, `a Link header of the form <…>; rel="next": ${link}`).not.toBeNull();
    next = m![1]!;
    expect(next).toMatch(nextPath);
    expect(pages.length).toBeLessThan(20);
  }
  return pages;
}
