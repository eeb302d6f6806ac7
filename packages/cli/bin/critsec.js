#!/usr/bin/env node
// The `critsec` command. Runs the built program (dist/cli.js) when the package is built; in the
// monorepo without a build (a fresh clone after `npm ci`), runs the TypeScript sources through
// tsx, resolving the @critsec/* packages to their sources with the `@critsec/source` export
// condition. CRITSEC_FROM_SOURCE=1 forces the sources (e.g. after editing them with a stale dist/).
import { existsSync } from 'node:fs';
import { register } from 'node:module';

async function fromSource() {
  let tsx;
  try {
    tsx = await import('tsx/esm/api');
  } catch {
    process.stderr.write('critsec: dist/ is missing and tsx is not installed; run `npm ci` (or `npm run build`) in the monorepo\n');
    process.exit(1);
  }
  tsx.register();
  // Registered after tsx, so it runs first: workspace packages resolve to their TypeScript sources.
  register(
    `data:text/javascript,${encodeURIComponent(
      'export async function resolve(s, c, next) { return next(s, c.conditions.includes("@critsec/source") ? c : { ...c, conditions: [...c.conditions, "@critsec/source"] }); }',
    )}`,
  );
  return import(new URL('../src/cli.ts', import.meta.url).href);
}

const dist = new URL('../dist/cli.js', import.meta.url);
let program;
if (existsSync(dist) && process.env.CRITSEC_FROM_SOURCE !== '1') {
  try {
    program = await import(dist.href);
  } catch (err) {
    // a partial build (a dependency's dist/ missing): run the sources instead
    if (err?.code !== 'ERR_MODULE_NOT_FOUND') throw err;
    program = await fromSource();
  }
} else {
  program = await fromSource();
}
const argv = process.argv.slice(2);
const code = await program.main(argv);
process.exitCode = code;
// The program closes everything it opened, so the process ends here by itself. Should a socket or
// timer of `critsec node` leak anyway, its supervisor must still see the exit: say so and end
// (once stdout and stderr have been written out, so no output is cut short).
if (argv[0] === 'node') {
  const stop = () => {
    if (process.stdout.writableLength > 0 || process.stderr.writableLength > 0) {
      setTimeout(stop, 1_000).unref();
      return;
    }
    process.stderr.write(`critsec: a handle was still open 5 s after the end; exiting with code ${code}\n`);
    process.exit(code);
  };
  setTimeout(stop, 5_000).unref();
}
