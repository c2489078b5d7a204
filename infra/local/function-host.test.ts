import { describe, expect, it } from 'vitest';
import { workerExecArgv } from './function-host.ts';

describe('workerExecArgv', () => {
  it('drops the TypeScript loader in each of the forms tsx and node put it, and keeps the rest', () => {
    expect(
      workerExecArgv([
        '--require',
        '/p/node_modules/tsx/dist/preflight.cjs',
        '--import',
        'file:///p/node_modules/tsx/dist/loader.mjs',
        '--enable-source-maps',
        '--import',
        'tsx',
        '--import=tsx',
        '--max-old-space-size=512',
        '--import',
        './other-hook.mjs',
      ]),
    ).toEqual(['--enable-source-maps', '--max-old-space-size=512', '--import', './other-hook.mjs']);
  });

  it('keeps a path that merely contains the letters', () => {
    expect(workerExecArgv(['--require', '/p/tsxy/x.cjs'])).toEqual(['--require', '/p/tsxy/x.cjs']);
  });
});
