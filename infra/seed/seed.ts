/**
 * `npm run seed -- [--people 50] [--base-url http://127.0.0.1:3000] [--admin-email …] [--admin-password …]`
 *
 * Fills a running service (local or deployed) with a believable demo company, through the public API
 * and the admin account only: teams, managers, profiles with avatars made by sharp, posts with
 * reactions, comments, polls and recognitions, events, meetings, birthdays today, attendance, leave
 * requests and a few grievances in every status. Idempotent enough to run twice: people and teams
 * that exist are reused; content is added again.
 */

import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { createDemoCompany } from './company.ts';

const { values } = parseArgs({
  options: {
    people: { type: 'string', default: '50' },
    'base-url': { type: 'string', default: process.env.BASE_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}` },
    'admin-email': { type: 'string', default: process.env.ADMIN_EMAIL ?? 'admin@example.com' },
    'admin-password': { type: 'string', default: process.env.ADMIN_PASSWORD ?? 'admin-password-1' },
    password: { type: 'string', default: 'demo-password-1' },
  },
});

const people = Number(values.people);
if (!Number.isInteger(people) || people < 5 || people > 5000) {
  console.error('--people must be a whole number from 5 to 5000');
  process.exit(2);
}

const base = `${values['base-url']!.replace(/\/$/, '')}/api/v1`;
type Res = { status: number; body: any; headers: Headers };

async function call(
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; form?: FormData } = {},
): Promise<Res> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: RequestInit['body'];
  if (opts.form) body = opts.form;
  else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const res = await fetch(`${base}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/** A square avatar with the person's initials, made with sharp. */
async function avatar(initials: string, hue: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="320">
<rect width="320" height="320" fill="hsl(${hue},55%,45%)"/>
<text x="50%" y="55%" font-family="sans-serif" font-size="130" fill="white" text-anchor="middle" dominant-baseline="middle">${initials}</text>
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const bar = (done: number, total: number, label: string) => {
  const width = 30;
  const filled = Math.round((done / total) * width);
  process.stdout.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${label.padEnd(28)}`);
  if (done === total) process.stdout.write('\n');
};

try {
  const health = await fetch(`${base}/health`);
  if (!health.ok) throw new Error(`no service at ${base} (health answered ${health.status})`);
  const summary = await createDemoCompany({
    people,
    password: values.password!,
    admin: { email: values['admin-email']!, password: values['admin-password']! },
    call,
    avatar,
    progress: bar,
  });
  console.log('\nDemo company ready.');
  for (const line of summary) console.log(`  ${line}`);
} catch (err) {
  console.error(`\nseed failed: ${(err as Error).message}`);
  process.exit(1);
}
