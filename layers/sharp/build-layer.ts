/**
 * Builds the sharp Lambda layer for the deployed functions (Node.js 22 on arm64, Amazon Linux 2023,
 * glibc): `npx tsx layers/sharp/build-layer.ts` (run from any machine; it needs only npm and the registry).
 *
 * npm installs sharp with the platform flags, so it fetches the prebuilt linux-arm64 binaries
 * (`@img/sharp-linux-arm64`, `@img/sharp-libvips-linux-arm64`) whatever the build machine is. The
 * version is the one the project installs locally, so the layer runs the code the tests ran.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharpLayerDir, sharpLayerPackage } from './index.ts';

const installed = join(import.meta.dirname, '..', '..', 'node_modules', 'sharp', 'package.json');
const version = (JSON.parse(readFileSync(installed, 'utf8')) as { version: string }).version;
const nodejs = join(sharpLayerDir, 'nodejs');

rmSync(sharpLayerDir, { recursive: true, force: true });
mkdirSync(nodejs, { recursive: true });
writeFileSync(join(nodejs, 'package.json'), `${JSON.stringify({ name: 'sharp-layer', private: true }, null, 2)}\n`);
execFileSync(
  'npm',
  [
    'install',
    `sharp@${version}`,
    '--cpu=arm64',
    '--os=linux',
    '--libc=glibc',
    '--omit=dev',
    '--no-audit',
    '--no-fund',
    '--no-package-lock',
  ],
  { cwd: nodejs, stdio: 'inherit' },
);

const binaries = ['@img/sharp-linux-arm64', '@img/sharp-libvips-linux-arm64'].map((p) =>
  join(nodejs, 'node_modules', p),
);
const missing = [sharpLayerPackage, ...binaries].filter((p) => !existsSync(p));
if (missing.length) {
  console.error(`sharp layer: missing after install: ${missing.join(', ')}`);
  process.exit(1);
}
console.log(`sharp layer: sharp ${version} for linux-arm64 (glibc) in ${sharpLayerDir}`);
