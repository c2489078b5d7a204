import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../build/bundle.ts';
import type { DeployConfig } from './config.ts';

/**
 * Deployment settings per environment, in committed files: `infra/environments/<name>.json` holds the
 * `workplace:*` context values of one environment, chosen with one flag (`-c workplace:env=<name>`,
 * `npm run deploy -- <name>`). A deployment never depends on `-c` flags someone must remember: the
 * flags the docs once passed only at the first deploy silently fell back to placeholders later.
 */
export const ENVIRONMENTS_DIR = join(ROOT, 'infra', 'environments');
export const ENVIRONMENT_CONTEXT_KEY = 'workplace:env';

export type EnvironmentSettings = Record<string, string | number | boolean>;

export const environmentFile = (name: string, dir = ENVIRONMENTS_DIR) => join(dir, `${name}.json`);

export function environmentNames(dir = ENVIRONMENTS_DIR): string[] {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .map((f) => f.slice(0, -5))
        .sort()
    : [];
}

/** An environment's settings; every key is a `workplace:` context key. */
export function loadEnvironment(name: string | undefined, dir = ENVIRONMENTS_DIR): EnvironmentSettings {
  const known = environmentNames(dir);
  if (!name) {
    throw new Error(
      `Choose an environment: -c ${ENVIRONMENT_CONTEXT_KEY}=<name> (npm run deploy -- <name>), one of ${known.join(', ') || '(none yet)'} in infra/environments/.`,
    );
  }
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name) || !known.includes(name)) {
    throw new Error(
      `No environment "${name}": add infra/environments/${name}.json (known: ${known.join(', ') || 'none'}).`,
    );
  }
  const settings = JSON.parse(readFileSync(environmentFile(name, dir), 'utf8')) as EnvironmentSettings;
  for (const key of Object.keys(settings)) {
    if (!key.startsWith('workplace:') || key === ENVIRONMENT_CONTEXT_KEY)
      throw new Error(`infra/environments/${name}.json: ${key} is not a workplace setting.`);
  }
  return settings;
}

/** Writes settings into an environment's file (the preflight records the stream's reservation there). */
export function updateEnvironment(name: string, changes: EnvironmentSettings, dir = ENVIRONMENTS_DIR): void {
  const file = environmentFile(name, dir);
  const settings = { ...(JSON.parse(readFileSync(file, 'utf8')) as EnvironmentSettings), ...changes };
  writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`);
}

/**
 * Context values given on the command line that the environment's file sets otherwise: refused, so
 * what is deployed is what is committed.
 */
export function conflictingFlags(settings: EnvironmentSettings, context: (key: string) => unknown): string[] {
  return Object.entries(settings)
    .filter(([key, value]) => {
      const given = context(key);
      return given !== undefined && String(given) !== String(value);
    })
    .map(([key]) => key);
}

/** Documentation domains (RFC 2606 / 6761) and markers that mean "fill this in". */
const PLACEHOLDER = /(^|[.@/])example\.(com|org|net)\b|\.example\b|\.invalid\b|CHANGE[-_ ]?ME|<[a-z-]+>/i;

/**
 * What a real deployment must not carry: a placeholder in any setting, and allowed origins that are
 * missing or `*` (CORS with credentials would then answer any site). The local runtime and the
 * template tests' own fixtures do not come through here. Each problem names its setting.
 */
export function deploymentProblems(settings: EnvironmentSettings, config: DeployConfig): string[] {
  const problems: string[] = [];
  const origins = settings['workplace:allowedOrigins'];
  if (origins === undefined || String(origins).trim() === '') {
    problems.push(
      'workplace:allowedOrigins is not set: set the web client origins (comma-separated, e.g. https://workplace.yourcompany.com).',
    );
  } else if (config.allowedOrigins.includes('*')) {
    problems.push(
      'workplace:allowedOrigins is "*": any site could call the API with credentials; set the web client origins.',
    );
  }
  for (const [key, value] of Object.entries(settings)) {
    if (typeof value === 'string' && PLACEHOLDER.test(value))
      problems.push(`${key} is a placeholder (${value}): set the real value.`);
  }
  return problems;
}
