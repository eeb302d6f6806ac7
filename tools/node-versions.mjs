#!/usr/bin/env node
/**
 * `npm run test:node-versions [-- 22 24]` — the short suites (`vitest run`, every package) under
 * other Node.js release lines than the one running npm: by default the maintained LTS lines 22 and
 * 24 (CI's own Node runs `npm test` and the long suites). Each line's binary comes from the npm
 * registry's `node` package (`npx -y node@<line>`, cached by npm after the first run), so nothing
 * but the npm registry is needed. The tests run with that binary first on `PATH`, so child
 * processes the tests start (`process.execPath`, `node`, `npx`) run under it too.
 *
 * Prints, per line, the exact version, the result and the time, then a last line
 * `node-versions: summary {json}`. Exit code 1 when a line failed or could not be installed.
 * Runs at the end of `npm run test:long`.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const lines = process.argv.slice(2).filter((a) => /^\d+$/.test(a));
const log = (line) => console.log(`node-versions: ${line}`);

/** The path of the `node` binary of release line `line` (installed by npx from the npm registry). */
function nodeBinary(line) {
  const r = spawnSync('npx', ['-y', `node@${line}`, '-p', 'process.execPath + " " + process.version'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`npx -y node@${line} failed (${r.status}): ${r.stderr.trim()}`);
  const [path, version] = r.stdout.trim().split('\n').at(-1).split(' ');
  if (!version?.startsWith(`v${line}.`)) throw new Error(`node@${line} is ${version ?? 'unknown'}`);
  return { path, version };
}

/** The environment of the run: that binary first on PATH, no trace of the calling npm run or suite. */
function envFor(bin) {
  const env = {};
  for (const [k, v] of Object.entries(process.env))
    if (!/^(npm_|VITEST|CRITSEC_LONG$|NODE_OPTIONS$)/i.test(k)) env[k] = v;
  return { ...env, PATH: `${dirname(bin)}:${process.env.PATH ?? ''}` };
}

/** Runs the short suites under release line `line`; returns its summary record. */
function runLine(line) {
  const started = Date.now();
  let version;
  try {
    const bin = nodeBinary(line);
    version = bin.version;
    log(`Node ${version} (${bin.path}): vitest run`);
    const r = spawnSync(bin.path, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], {
      cwd: root,
      env: envFor(bin.path),
      stdio: 'inherit',
    });
    const seconds = Math.round((Date.now() - started) / 1000);
    log(`Node ${version}: ${r.status === 0 ? 'passed' : `FAILED (exit ${r.status ?? r.signal})`} in ${seconds} s`);
    return { line, version, ok: r.status === 0, seconds };
  } catch (e) {
    log(`Node ${line}: FAILED: ${e instanceof Error ? e.message : String(e)}`);
    return { line, version, ok: false, seconds: Math.round((Date.now() - started) / 1000) };
  }
}

const results = (lines.length > 0 ? lines : ['22', '24']).map(runLine);
log(`summary ${JSON.stringify(results)}`);
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
