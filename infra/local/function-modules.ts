import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
  /** Compiled by another runtime of the same test run (LOCAL_FUNCTIONS_SHARED): kept when this one stops. */
  private readonly shared: boolean;
  private readonly built = new Map<string, Promise<LoadedModule>>();

  constructor(private readonly root: string) {
    // A test run starts many runtimes over sources that do not change while it runs: they share one
    // folder of compiled modules (made and removed by the run), so each function is compiled once per
    // run, not once per runtime.
    const shared = process.env.LOCAL_FUNCTIONS_SHARED;
    this.shared = !!shared;
    this.dir =
      shared || join(root, 'node_modules', '.cache', 'local-functions', `${process.pid}-${randomUUID().slice(0, 8)}`);
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
      const recorded = `${outfile}.secrets.json`;
      if (this.shared && existsSync(recorded)) {
        const loaded = { url: pathToFileURL(outfile).href, secrets: JSON.parse(readFileSync(recorded, 'utf8')) };
        this.built.set(file, Promise.resolve(loaded));
        return Promise.resolve(loaded);
      }
      // Shared: written under a name of its own, then moved into place, so that a runtime compiling the
      // same function at the same moment never loads a half-written file.
      const written = this.shared ? `${outfile}.${process.pid}-${randomUUID().slice(0, 8)}.mjs` : outfile;
      p = build({
        entryPoints: [join(this.root, file)],
        outfile: written,
        absWorkingDir: this.root,
        bundle: true,
        packages: 'external',
        format: 'esm',
        platform: 'node',
        target: 'node22',
        sourcemap: 'linked',
        metafile: true,
        logLevel: 'silent',
      }).then((result) => {
        const secrets = secretsInOutput(
          result.metafile.outputs[relative(this.root, written).replace(/\\/g, '/')]?.inputs ?? {},
        );
        if (written !== outfile) {
          renameSync(`${written}.map`, `${outfile}.map`);
          // The map is found by the file's name (its last line), which keeps the temporary one: say the final one.
          writeFileSync(
            written,
            readFileSync(written, 'utf8').replace(
              /\/\/# sourceMappingURL=.*$/m,
              `//# sourceMappingURL=${outfile.split('/').pop()}.map`,
            ),
          );
          renameSync(written, outfile);
          writeFileSync(`${recorded}.${process.pid}`, JSON.stringify(secrets));
          renameSync(`${recorded}.${process.pid}`, recorded);
        }
        return { url: pathToFileURL(outfile).href, secrets };
      });
      p.catch(() => this.built.delete(file));
      this.built.set(file, p);
    }
    return p;
  }

  remove(): void {
    if (!this.shared) rmSync(this.dir, { recursive: true, force: true });
  }
}
