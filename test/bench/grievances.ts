import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDynamoDbLocal } from '../../infra/local/dynamodb.ts';
import { freePort } from '../../infra/local/runtime.ts';
import { db, setDbClient } from '../../shared/db/client.ts';
import { putMany, transact } from '../../shared/db/table.ts';
import type { GrievanceItem } from '../../shared/grievances/entities.ts';
import { getGrievance, listBoard, newGrievanceItem } from '../../shared/grievances/grievances.ts';
import { markRead, unreadCount } from '../../shared/grievances/read-state.ts';
import { raisedDeltas, totalsWrite } from '../../shared/grievances/totals.ts';
import { CATEGORIES } from '../../shared/grievances/vocabulary.ts';
import { createTable, Meter, meteredClient } from './support.ts';

/**
 * Grievance cost figures (issue: "O(page) everywhere"): DynamoDB requests and consumed read capacity
 * of the board page, the unread count and a grievance read with 10 and with 10,000 grievances. The
 * requests must be the same and the capacity at 10,000 at most 1.1 times that at 10. Runs against its
 * own DynamoDB Local in a temporary directory, calling the domain functions the routes call (the
 * session's two reads, the same for every route, are left out).
 */
const SIZES = [10, 10_000] as const;
/** A page that both sizes fill (the query reads limit + 1 = 10 items either way); the default 20 cannot fill at 10. */
const PAGE = 9;
const READER = 'bench-reader';

/** Grievances of equal size, built by the domain's own item builder and batch-written, with their board totals. */
async function seed(count: number): Promise<GrievanceItem[]> {
  const items = Array.from({ length: count }, (_, i) =>
    newGrievanceItem(`raiser-${i % 50}`, {
      subject: `Bench grievance ${String(i).padStart(6, '0')}`,
      description: `A grievance seeded by the bench, number ${String(i).padStart(6, '0')}, of a fixed length.`,
      category: CATEGORIES[i % CATEGORIES.length],
    }),
  );
  // Eight BatchWrite streams at once (putMany writes 25 items a call).
  const slice = Math.ceil(items.length / 8);
  await Promise.all(Array.from({ length: 8 }, (_, i) => putMany(items.slice(i * slice, (i + 1) * slice))));
  const deltas = new Map<string, number>();
  for (const g of items)
    for (const [f, d] of raisedDeltas(g.status, g.category)) deltas.set(f, (deltas.get(f) ?? 0) + d);
  await transact([totalsWrite(deltas)!]);
  return items;
}

async function measure(endpoint: string, fn: () => Promise<unknown>): Promise<Meter> {
  const meter = new Meter();
  const plain = db();
  setDbClient(meteredClient(endpoint, meter));
  try {
    await fn();
  } finally {
    setDbClient(plain);
  }
  return meter;
}

/** Runs the grievance section; answers whether the budget held. */
export async function benchGrievances(log: (line: string) => void = console.log): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-grievances-'));
  const saved = { ...process.env };
  const local = await startDynamoDbLocal(join(dir, 'dynamodb'), await freePort());
  try {
    Object.assign(process.env, {
      AWS_ENDPOINT_URL_DYNAMODB: local.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      TABLE_NAME: `bench-${randomUUID().slice(0, 8)}`,
      GRIEVANCE_SECRET: randomBytes(32).toString('base64url'),
      CURSOR_SECRET: randomBytes(32).toString('base64url'),
    });
    setDbClient(undefined);
    await createTable(local.endpoint, process.env.TABLE_NAME!);

    const rows = new Map<string, Meter[]>();
    const all: GrievanceItem[] = [];
    for (const size of SIZES) {
      all.push(...(await seed(size - all.length)));
      const target = all[Math.floor(all.length / 2)];
      const boardPage = { limit: PAGE };
      const filteredPage = { status: 'open', category: 'harassment', limit: 1 } as const;
      // The reader has opened every grievance the measured calls show, so each reads the same markers
      // at both sizes (DynamoDB Local charges nothing for a missing item; DynamoDB does).
      const shown = [
        ...(await listBoard(READER, boardPage)).items,
        ...(await listBoard(READER, filteredPage)).items,
        target,
      ];
      const byId = new Map(all.map((g) => [g.id, g]));
      for (const g of shown) await markRead(READER, byId.get(g.id)!);
      const figures: [string, () => Promise<unknown>][] = [
        [`board page (limit ${PAGE})`, () => listBoard(READER, boardPage)],
        ['board page, status and category', () => listBoard(READER, filteredPage)],
        ['unread count', () => unreadCount(READER)],
        ['grievance read', () => getGrievance(READER, target.id)],
      ];
      for (const [name, fn] of figures) rows.set(name, [...(rows.get(name) ?? []), await measure(local.endpoint, fn)]);
    }

    let ok = true;
    log('');
    log('grievances: DynamoDB requests and consumed read capacity (RCU) per call');
    log(
      `${'call'.padEnd(36)}${SIZES.map((s) => `${`req@${s}`.padStart(11)}${`RCU@${s}`.padStart(11)}`).join('')}  budget`,
    );
    for (const [name, [small, large]] of rows) {
      const holds = large.requests === small.requests && large.rcu <= small.rcu * 1.1 + 1e-9;
      ok &&= holds;
      const cells = [small, large]
        .map((m) => `${String(m.requests).padStart(11)}${m.rcu.toFixed(1).padStart(11)}`)
        .join('');
      log(`${name.padEnd(36)}${cells}  ${holds ? 'ok' : 'BREACHED (same requests, at most 1.1x capacity)'}`);
    }
    return ok;
  } finally {
    setDbClient(undefined);
    await local.stop();
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
    rmSync(dir, { recursive: true, force: true });
  }
}
