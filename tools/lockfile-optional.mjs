#!/usr/bin/env node
/**
 * Completes package-lock.json with the platform-specific optional dependencies that the npm
 * registry mirror of our build machines does not serve (it answers 404 for other platforms'
 * binaries of @biomejs/cli-*, @nx/nx-*, @rollup/rollup-*), so npm writes no entry for them and
 * `npm ci` then refuses the lockfile as "out of sync" (npm/cli#4828, #8320).
 *
 * For each missing optional dependency it adds `{ version, optional: true, dev?, os, cpu, libc? }`
 * read from the dependent package's `optionalDependencies` and from the name's platform triple.
 * npm skips such entries on every other platform, exactly as for a complete lockfile; on the
 * platform they belong to, npm fetches them by version (no integrity is known here).
 *
 *   node tools/lockfile-optional.mjs          # rewrite package-lock.json in place
 *   node tools/lockfile-optional.mjs --check  # exit 1 if entries are missing
 */
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const pkgs = lock.packages;

const OS = ['android', 'darwin', 'freebsd', 'linux', 'win32', 'openbsd', 'sunos', 'aix', 'openharmony', 'netbsd'];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 'riscv64', 's390x', 'loong64', 'mips64el'];

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.find((p) => CPU.includes(p)) ?? (parts.includes('gnueabihf') || parts.includes('eabi') ? 'arm' : undefined);
  const libc = parts.includes('musl') ? 'musl' : parts.includes('gnu') || parts.includes('gnueabihf') ? 'glibc' : undefined;
  return { os, cpu, libc };
}

const missing = [];
for (const [path, meta] of Object.entries(pkgs)) {
  if (!path.startsWith('node_modules/') || !meta.optionalDependencies) continue;
  for (const [dep, range] of Object.entries(meta.optionalDependencies)) {
    const nested = `${path}/node_modules/${dep}`;
    const hoisted = `node_modules/${dep}`;
    if (pkgs[nested] || pkgs[hoisted]) continue;
    const { os, cpu, libc } = platformOf(dep);
    if (!os || !cpu) continue; // not a platform binary: leave it to npm
    const version = range.replace(/^[\^~=]/, '');
    const entry = { version, ...(meta.dev ? { dev: true } : {}), optional: true, os: [os], cpu: [cpu], ...(libc ? { libc: [libc] } : {}) };
    missing.push([hoisted, entry]);
  }
}

if (process.argv.includes('--check')) {
  if (missing.length > 0) {
    console.error(`package-lock.json lacks ${missing.length} platform optional entries; run: node tools/lockfile-optional.mjs`);
    process.exit(1);
  }
  process.exit(0);
}
for (const [path, entry] of missing) pkgs[path] = entry;
lock.packages = Object.fromEntries(Object.entries(pkgs).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${missing.length} platform optional entries to package-lock.json`);
