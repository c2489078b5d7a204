import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { SecretName } from '../../shared/config/secrets.ts';
import { bundleSecrets, secretsInOutput } from '../build/bundle.ts';
import { handlerModuleUrl } from './handler-module.ts';

/** A module an execution environment loads, and the application secrets its code reads. */
export interface LoadedModule {
  url: string;
  secrets: SecretName[];
}

/**
 * The modules the local runtime's execution environments load: each function's handler, and the
 * environment's own entry, compiled from TypeScript once per runtime into one file each (esbuild,
 * packages left to Node). A worker then loads a single file and the packages it imports, instead of
 * resolving and compiling every source file through a TypeScript loader on each cold start (several
 * times slower). The files live under node_modules/.cache, so bare imports resolve to the project's
 * packages, in a folder of this runtime's own (two runtimes of one worktree do not share it).
 * In bundled mode (infra/local/handler-module.ts) a handler is the staged production bundle instead.
 */
export class FunctionModules {
  private readonly dir: string;
  private readonly built = new Map<string, Promise<LoadedModule>>();

  constructor(private readonly root: string) {
    this.dir = join(root, 'node_modules', '.cache', 'local-functions', `${process.pid}-${randomUUID().slice(0, 8)}`);
  }

  /**
   * A function's handler module: the staged bundle in bundled mode (its secrets as the bundle run
   * recorded them), else compiled here (its secrets found the same way, in this build's metafile).
   */
  handler(file: string): Promise<LoadedModule> {
    if (process.env.LOCAL_BUNDLE_DIR)
      return Promise.resolve({ url: handlerModuleUrl(file, this.root), secrets: bundleSecrets(file) });
    return this.compiled(file);
  }

  /** The compiled module of a project-relative source file (compiled on first use). */
  compiled(file: string): Promise<LoadedModule> {
    let p = this.built.get(file);
    if (!p) {
      const outfile = join(this.dir, file.replace(/\.ts$/, '.mjs'));
      p = build({
        entryPoints: [join(this.root, file)],
        outfile,
        absWorkingDir: this.root,
        bundle: true,
        packages: 'external',
        format: 'esm',
        platform: 'node',
        target: 'node22',
        sourcemap: 'linked',
        metafile: true,
        logLevel: 'silent',
      }).then((result) => ({
        url: pathToFileURL(outfile).href,
        secrets: secretsInOutput(
          result.metafile.outputs[relative(this.root, outfile).replace(/\\/g, '/')]?.inputs ?? {},
        ),
      }));
      p.catch(() => this.built.delete(file));
      this.built.set(file, p);
    }
    return p;
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
