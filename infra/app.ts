/**
 * The CDK app (`cdk.json`: `npx tsx infra/app.ts`). Bundles the functions first when dist/ is missing
 * or older than the sources, so `npx cdk synth` works from a clean checkout, offline.
 *
 * Settings come from the environment's committed file, chosen with one flag: `-c workplace:env=<name>`
 * reads infra/environments/<name>.json (infra/stacks/environment.ts; keys in infra/stacks/config.ts).
 * A deployment refuses placeholders, a missing origin list and `*`, naming the setting. `-c workplace:nag=true` runs the cdk-nag AwsSolutions checks at synthesis (synthesis
 * then fails on any finding that is not acknowledged in the code; the infra tests run them too).
 *
 * Secrets: CURSOR_SECRET, GRIEVANCE_SECRET, SURVEY_SECRET, NOTIFICATION_SECRET, IDEMPOTENCY_SECRET, AVATAR_SECRET and SCIM_TOKEN are generated in Secrets Manager by the data stack; a
 * function gets only the ARNs of those its bundle reads and fetches the values at run time
 * (shared/config/secrets.ts, infra/constructs/secret-grants.ts).
 *
 * Synthesis fails when a bundle imports sharp and layers/sharp is not built (`npm run build:layers`).
 */
import { App, Validations } from 'aws-cdk-lib';
import { ensureBundled } from './build/bundle.ts';
import { conflictingFlags, ENVIRONMENT_CONTEXT_KEY, loadEnvironment } from './stacks/environment.ts';
import { buildApp } from './stacks/workplace-app.ts';

const app = new App();
try {
  const name = app.node.tryGetContext(ENVIRONMENT_CONTEXT_KEY) as string | undefined;
  const settings = loadEnvironment(name);
  const conflicts = conflictingFlags(settings, (key) => app.node.tryGetContext(key));
  if (conflicts.length) {
    throw new Error(
      `${conflicts.join(', ')} given with -c differ from infra/environments/${name}.json: change the file (what is deployed is what is committed).`,
    );
  }
  for (const [key, value] of Object.entries(settings)) app.node.setContext(key, value);
  // The CLI reads the app's stdout only as a log; progress goes to stderr all the same.
  await ensureBundled({ log: (line) => process.stderr.write(`${line}\n`) });
  buildApp(app, { deployment: { name: name!, settings } });
} catch (error) {
  process.stderr.write(`\n${(error as Error).message}\n\n`);
  process.exit(1);
}
if (String(app.node.tryGetContext('workplace:nag')) === 'true') {
  const { AwsSolutionsChecks } = await import('cdk-nag');
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
}
app.synth();
