import { existsSync, globSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The README is the front door: small, with one line per topic linking into `docs/`. Its size is held
 * here, and every relative link of the README and of `docs/` must reach a file that exists and, with a
 * `#fragment`, a heading of that file (GitHub's slugs: lower case, punctuation dropped, spaces as `-`).
 */
const README_MAX_BYTES = 12 * 1024;

const pages = ['README.md', ...globSync('docs/*.md')];

const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const headingsOf = (file: string) =>
  new Set(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) => slug(line.replace(/^#+ /, ''))),
  );

/** `[text](target)` links that are neither absolute URLs nor mail addresses, outside code blocks. */
function relativeLinks(file: string): string[] {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((t) => !/^[a-z]+:/i.test(t));
}

describe('the README and docs/', () => {
  it(`the README is at most ${README_MAX_BYTES} bytes`, () => {
    expect(statSync('README.md').size).toBeLessThanOrEqual(README_MAX_BYTES);
  });

  it('every relative link reaches an existing file and heading', () => {
    const broken: string[] = [];
    for (const page of pages)
      for (const link of relativeLinks(page)) {
        const [path, fragment] = link.split('#');
        const target = path ? join(dirname(page), path) : page;
        if (!existsSync(target)) broken.push(`${page}: ${link} (no such file)`);
        else if (fragment && target.endsWith('.md') && !headingsOf(target).has(fragment))
          broken.push(`${page}: ${link} (no such heading)`);
      }
    expect(broken).toEqual([]);
  });

  it('the README links every page of docs/', () => {
    const readme = readFileSync('README.md', 'utf8');
    const unlinked = globSync('docs/*.md').filter((page) => !readme.includes(`(${page}`));
    expect(unlinked).toEqual([]);
  });
});
