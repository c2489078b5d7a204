/**
 * The CDK app (`cdk.json`: `npx tsx infra/app.ts`). Bundles the functions first when dist/ is missing
 * or older than the sources, so `npx cdk synth` works from a clean checkout, offline.
 *
 * Settings come from CDK context (see infra/stacks/config.ts): `-c workplace:allowedOrigins=https://...`
 * and friends. `-c workplace:nag=true` runs the cdk-nag AwsSolutions checks at synthesis (synthesis
 * then fails on any finding that is not acknowledged in the code; the infra tests run them too).
 *
 * Secrets: CURSOR_SECRET and GRIEVANCE_SECRET are generated in Secrets Manager by the data stack; a
 * function gets only the ARNs of those its bundle reads and fetches the values at run time
 * (shared/config/secrets.ts, infra/constructs/secret-grants.ts).
 *
 * Synthesis fails when a bundle imports sharp and layers/sharp is not built (`npm run build:layers`).
 */
import { App, Validations } from 'aws-cdk-lib';
import { ensureBundled } from './build/bundle.ts';
import { buildApp } from './stacks/workplace-app.ts';

// The CLI reads the app's stdout only as a log; progress goes to stderr all the same.
await ensureBundled({ log: (line) => process.stderr.write(`${line}\n`) });

const app = new App();
buildApp(app);
if (String(app.node.tryGetContext('workplace:nag')) === 'true') {
  const { AwsSolutionsChecks } = await import('cdk-nag');
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
}
app.synth();
