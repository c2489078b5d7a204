/**
 * `npm run migrations -- [status | run | pause <id> | resume <id>]`
 *
 * The operator's view of the migrations of stored items (docs/deployment.md, "Upgrading and rolling
 * back"), against the table TABLE_NAME names with the usual AWS credentials and region, or a local
 * table through AWS_ENDPOINT_URL_DYNAMODB (`npm start` prints DynamoDB Local's endpoint).
 * `status` lists each migration with its state and counts; `run` runs what is left now (the schedule
 * does the same every 5 minutes); `pause` and `resume` hold and release one migration (and the ones
 * after it).
 */

import { migrationStates, runMigrations, setPaused } from '../shared/migrations/runner.ts';
import { migrationById, migrations } from '../shared/registry/migrations.ts';

const [command = 'status', id] = process.argv.slice(2);
process.env.TABLE_NAME ??= 'workplace';

const print = (states: Awaited<ReturnType<typeof migrationStates>>) => {
  for (const s of states)
    console.log(
      `${s.id.padEnd(36)} ${s.status.padEnd(8)} scanned ${String(s.scanned).padStart(8)}  changed ${String(s.changed).padStart(7)}` +
        `${s.finishedAt ? `  finished ${s.finishedAt}` : ''}${s.error ? `  error: ${s.error}` : ''}`,
    );
};

try {
  if (command === 'status') print(await migrationStates(migrations));
  else if (command === 'run') {
    const { complete, states } = await runMigrations(migrations, { budgetMs: 60 * 60_000 });
    print(states);
    process.exitCode = complete ? 0 : 1;
  } else if (command === 'pause' || command === 'resume') {
    const m = id ? migrationById(id) : undefined;
    if (!m) throw new Error(`no migration ${id ?? '(none given)'}; ids: ${migrations.map((x) => x.id).join(', ')}`);
    await setPaused(m, command === 'pause');
    print(await migrationStates(migrations));
  } else throw new Error(`unknown command ${command}: status, run, pause <id>, resume <id>`);
} catch (err) {
  console.error(`migrations: ${(err as Error).message}`);
  process.exitCode = 2;
}
