#!/usr/bin/env node
/**
 * `npm run release:check` — publish every public package to a throwaway registry and use it the
 * way a new user would.
 *
 * 1. starts verdaccio on 127.0.0.1 at a free port, its storage and config in a temporary
 *    directory; `@critsec/*` lives only there, every other name is proxied to the npm registry
 *    this machine is configured with (`npm config get registry`), so third-party dependencies
 *    resolve;
 * 2. the real release path, `npm run release` (`changeset version`, then the build, then
 *    `changeset publish`), runs in a throwaway copy of the checkout (its tracked and untracked,
 *    not ignored, files; a git repository of its own; `node_modules` linked), so the checkout is
 *    never modified; the versions `changeset status` planned must be the ones published and the
 *    ones the copy's package.json files now say, and every released package's CHANGELOG.md must
 *    have its new version's section; then the registry is asked for each;
 * 3. each published package's tarball, from the release's own build, is checked
 *    (`nx run-many -t check-package` in the copy without rebuilding: publint --strict, attw,
 *    metadata — tools/check-package.mjs; `--no-check` skips it);
 * 4. a fresh consumer project in the temporary directory installs every public package by
 *    name@(released version) from that registry (and the third-party modules the examples import); the
 *    lockfile must say each came from it, and each installed package must carry its LICENSE;
 * 5. every README example (tools/readme-examples.mjs) runs in the consumer, as an ES module and as
 *    CommonJS (every public package ships both), then `npx critsec --help`;
 * 6. verdaccio is stopped and the directory removed (`--keep` keeps it).
 *
 * The npm configuration lives in `.npmrc` files inside the temporary directory (the user's
 * ~/.npmrc is never read or written: `npm_config_userconfig` points there). Prints what it did and
 * a last line `release-check: summary {json}`; `--summary <file>` also writes that JSON. Exit code 1
 * when anything failed. Runs in `npm run test:long` (integration-tests/test/release-check.long.test.ts).
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { importedModules, readmeExamples, toPrograms } from './readme-examples.mjs';

const root = resolve(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const option = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const log = (line) => console.log(`release-check: ${line}`);
const EXAMPLE_TIMEOUT_MS = 180_000;
/** The pid of the verdaccio this run started, while it runs. */
let activeRegistryPid;

/** Runs a command to completion; returns `{ status, stdout, stderr }` (output as text). */
function run(command, args, options = {}) {
  const r = spawnSync(command, args, {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    killSignal: 'SIGKILL',
    ...options,
  });
  return {
    status: r.error ? -1 : r.status,
    stdout: r.stdout ?? '',
    stderr: (r.stderr ?? '') + (r.error ? String(r.error) : ''),
  };
}

/** Runs a command that must succeed; throws with its output otherwise. */
function must(command, args, options = {}) {
  const r = run(command, args, options);
  if (r.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** The public packages of the checkout at `base`: `{ dir, name, version, manifest }`, sorted by directory. */
function publicPackages(base = root) {
  return readdirSync(join(base, 'packages'))
    .sort()
    .map((dir) => {
      try {
        return {
          dir,
          manifest: JSON.parse(readFileSync(join(base, 'packages', dir, 'package.json'), 'utf8')),
        };
      } catch {
        return null;
      }
    })
    .filter((p) => p && p.manifest.private !== true)
    .map(({ dir, manifest }) => ({ dir, name: manifest.name, version: manifest.version, manifest }));
}

/** `fetch` with a fresh connection and three tries (verdaccio may close an idle keep-alive socket). */
async function request(url, init = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, {
        ...init,
        keepalive: false,
        headers: { connection: 'close', ...init.headers },
      });
    } catch (e) {
      if (attempt >= 3) throw new Error(`${init.method ?? 'GET'} ${url}: ${e.cause?.message ?? e.message}`);
      await new Promise((r) => setTimeout(r, 500 * attempt));
    }
  }
}

/** A TCP port nobody listens on right now. */
function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/** The verdaccio configuration: storage in `dir`, `@critsec/*` local only, the rest proxied. */
function verdaccioConfig(dir, upstream) {
  const proxy = process.env.https_proxy ?? process.env.HTTPS_PROXY;
  return [
    `storage: ${JSON.stringify(join(dir, 'storage'))}`,
    'auth:',
    '  htpasswd:',
    `    file: ${JSON.stringify(join(dir, 'htpasswd'))}`,
    '    max_users: 10',
    'uplinks:',
    '  upstream:',
    `    url: ${JSON.stringify(upstream)}`,
    '    timeout: 60s',
    'packages:',
    "  '@critsec/*':",
    '    access: $all',
    '    publish: $authenticated',
    "  '**':",
    '    access: $all',
    '    publish: $authenticated',
    '    proxy: upstream',
    'web:',
    '  enable: false',
    'log: { type: stdout, format: pretty, level: warn }',
    ...(proxy ? [`https_proxy: ${JSON.stringify(proxy)}`] : []),
    '',
  ].join('\n');
}

/** Starts verdaccio; resolves `{ url, token, stop }` once it answers `/-/ping` and a user exists. */
async function startRegistry(dir, upstream) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  writeFileSync(join(dir, 'verdaccio.yaml'), verdaccioConfig(dir, upstream));
  const require = createRequire(import.meta.url);
  const bin = join(require.resolve('verdaccio/package.json'), '..', 'bin', 'verdaccio');
  const child = spawn(
    process.execPath,
    [bin, '--config', join(dir, 'verdaccio.yaml'), '--listen', `127.0.0.1:${port}`],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  activeRegistryPid = child.pid;
  child.once('exit', () => {
    activeRegistryPid = undefined;
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise((done) => child.once('exit', done));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await waitForPing(url, child, () => output);
    const token = await addUser(url);
    return { url, port, token, pid: child.pid, stop, output: () => output };
  } catch (e) {
    await stop();
    throw e;
  }
}

async function waitForPing(url, child, output) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited (${child.exitCode}):\n${output()}`);
    try {
      if ((await fetch(`${url}-/ping`, { headers: { connection: 'close' } })).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`verdaccio did not answer on ${url} within 60 s:\n${output()}`);
}

/** Registers a throwaway user (verdaccio's htpasswd) and returns its token. */
async function addUser(url) {
  const name = 'release-check';
  const res = await request(`${url}-/user/org.couchdb.user:${name}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password: `pw-${process.pid}-${Date.now()}`, type: 'user', roles: [] }),
  });
  const body = await res.json();
  if (!res.ok || typeof body.token !== 'string')
    throw new Error(`adduser failed: ${res.status} ${JSON.stringify(body)}`);
  return body.token;
}

/** The environment every npm command runs in: the temporary .npmrc, cache and registry only. */
function npmEnv(dir, registry) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_config_/i.test(k)) env[k] = v;
  const rc = join(dir, '.npmrc');
  const host = registry.url.replace(/^http:/, '');
  writeFileSync(
    rc,
    `registry=${registry.url}\n${host}:_authToken=${registry.token}\nfund=false\naudit=false\n`,
  );
  return {
    ...env,
    npm_config_userconfig: rc,
    npm_config_registry: registry.url,
    npm_config_cache: join(dir, 'npm-cache'),
    npm_config_update_notifier: 'false',
    FORCE_COLOR: '0',
    NO_COLOR: '1',
  };
}

/**
 * A throwaway copy of the checkout in `work/checkout`: every tracked and untracked (not ignored)
 * file, committed to a git repository of its own (branch `main`, the changesets base branch),
 * with the checkout's `node_modules` directories linked in.
 */
function copyCheckout(work) {
  const copy = join(work, 'checkout');
  const listed = must('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root });
  for (const file of new Set(listed.stdout.split('\0').filter(Boolean))) {
    if (!existsSync(join(root, file))) continue; // deleted, not yet committed
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    copyFileSync(join(root, file), join(copy, file));
  }
  for (const dir of ['.', ...readdirSync(join(root, 'packages')).map((d) => join('packages', d))]) {
    const modules = join(root, dir, 'node_modules');
    if (existsSync(modules) && existsSync(join(copy, dir))) symlinkSync(modules, join(copy, dir, 'node_modules'));
  }
  const git = (...args) => must('git', args, { cwd: copy, env: gitEnv() });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '--no-verify', '-m', 'release-check: the checkout as it is');
  return copy;
}

/** A git identity for the copy's commit, whatever the user's configuration. */
function gitEnv() {
  const id = { name: 'release-check', email: 'release-check@localhost' };
  return {
    ...process.env,
    GIT_AUTHOR_NAME: id.name,
    GIT_AUTHOR_EMAIL: id.email,
    GIT_COMMITTER_NAME: id.name,
    GIT_COMMITTER_EMAIL: id.email,
  };
}

/** `changeset status`: the version each package will have after `changeset version` (`Map` name → version). */
function plannedVersions(copy, env) {
  const changeset = join(copy, 'node_modules', '@changesets', 'cli', 'bin.js');
  const file = join(copy, '..', 'changeset-status.json');
  must(process.execPath, [changeset, 'status', `--output=${file}`], { cwd: copy, env });
  const status = JSON.parse(readFileSync(file, 'utf8'));
  return new Map(status.releases.map((r) => [r.name, r.newVersion]));
}

/**
 * The release as a maintainer runs it, `npm run release`, in the copy, against the local registry;
 * then checks: the copy's package.json versions are the planned ones, each released package's
 * CHANGELOG.md has its version's section, and the registry holds every public package at its
 * version. Returns `{ planned, published, changelogs }`.
 */
async function releaseFromCopy(copy, registry, env) {
  const before = new Map(publicPackages(copy).map((p) => [p.name, p.version]));
  const planned = new Map([...plannedVersions(copy, env)].filter(([name]) => before.has(name)));
  log(`changeset status: ${planned.size} public packages to release (${[...planned].map(([n, v]) => `${n} ${before.get(n)} -> ${v}`).join(', ')})`);
  const nx = { NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_SKIP_NX_CACHE: 'true', CI: 'true' };
  const r = run('npm', ['run', 'release'], { cwd: copy, env: { ...env, ...nx }, timeout: 1_800_000 });
  for (const line of `${r.stdout}${r.stderr}`.split('\n')) if (line.trim()) log(`  release | ${line}`);
  if (r.status !== 0) throw new Error(`npm run release failed (${r.status})`);
  const packages = publicPackages(copy);
  const changelogs = [];
  for (const p of packages) {
    const expected = planned.get(p.name) ?? before.get(p.name);
    if (p.version !== expected) throw new Error(`${p.name}: package.json says ${p.version} after the release, planned ${expected}`);
    if (!planned.has(p.name)) continue;
    const changelog = readFileSync(join(copy, 'packages', p.dir, 'CHANGELOG.md'), 'utf8');
    if (!changelog.includes(`\n## ${p.version}\n`)) throw new Error(`${p.name}: CHANGELOG.md has no section ## ${p.version}`);
    changelogs.push(`${p.name}@${p.version}`);
  }
  const published = [];
  for (const p of packages) {
    const res = await request(`${registry.url}${p.name.replace('/', '%2f')}`);
    const doc = res.ok ? await res.json() : {};
    if (!doc.versions?.[p.version])
      throw new Error(`${p.name}@${p.version} is not on the local registry after the release`);
    published.push(`${p.name}@${p.version}`);
  }
  const bumped = packages.filter((p) => p.version !== before.get(p.name)).length;
  return { packages, planned: Object.fromEntries(planned), published, changelogs, bumped };
}

/** The version range a public package already uses for a third-party module (else `latest`). */
function rangeOf(name, packages) {
  for (const p of packages) {
    const range = p.manifest.dependencies?.[name] ?? p.manifest.devDependencies?.[name];
    if (range) return range;
  }
  return 'latest';
}

/** Creates the consumer project and installs the packages; returns `[{ name, version, resolved }]` from its lockfile. */
function install(consumer, packages, extra, registry, env) {
  mkdirSync(consumer, { recursive: true });
  writeFileSync(
    join(consumer, 'package.json'),
    `${JSON.stringify({ name: 'critsec-release-consumer', version: '1.0.0', private: true }, null, 2)}\n`,
  );
  writeFileSync(join(consumer, '.npmrc'), `registry=${registry.url}\n`);
  const specs = [
    ...packages.map((p) => `${p.name}@${p.version}`),
    ...extra.map((m) => `${m}@${rangeOf(m, packages)}`),
  ];
  log(`npm install ${specs.join(' ')}`);
  must('npm', ['install', '--save-exact', '--no-audit', '--no-fund', ...specs], {
    cwd: consumer,
    env,
    timeout: 900_000,
  });
  const lock = JSON.parse(readFileSync(join(consumer, 'package-lock.json'), 'utf8')).packages;
  const fromRegistry = Object.values(lock).filter((e) => e.resolved?.startsWith(registry.url)).length;
  const total = Object.keys(lock).length - 1;
  const installed = packages.map((p) => {
    const entry = lock[`node_modules/${p.name}`];
    if (!entry) throw new Error(`${p.name} is not in the consumer's lockfile`);
    if (entry.version !== p.version)
      throw new Error(`${p.name}: installed ${entry.version}, expected ${p.version}`);
    if (!entry.resolved?.startsWith(registry.url))
      throw new Error(`${p.name} came from ${entry.resolved}, not ${registry.url}`);
    const installedDir = join(consumer, 'node_modules', p.name);
    if (!existsSync(join(installedDir, 'LICENSE')))
      throw new Error(`${p.name}: the installed package has no LICENSE`);
    return { name: p.name, version: entry.version, resolved: entry.resolved };
  });
  return { installed, lockfile: { total, fromRegistry } };
}

/** Runs one program in the consumer; returns the result record. */
function runExample(consumer, file, env) {
  const started = Date.now();
  const r = run(process.execPath, [file], { cwd: consumer, env, timeout: EXAMPLE_TIMEOUT_MS });
  const leftOpen = r.stderr.includes('release-check: example left handles open');
  return {
    ok: r.status === 0,
    status: r.status,
    ms: Date.now() - started,
    leftOpen,
    stdout: r.stdout,
    stderr: r.stderr,
  };
}

/** True unless `name` is one of ours whose `exports['.']` has no `require` (third-party: assumed). */
function shipsCjs(name, packages) {
  const ours = packages.find((p) => p.name === name);
  return !ours || Boolean(ours.manifest.exports?.['.']?.require);
}

/** Writes and runs every README example of every package in the consumer: ESM, and CJS where shipped. */
function runExamples(consumer, examples, packages, env) {
  const dir = join(consumer, 'examples');
  mkdirSync(dir, { recursive: true });
  const results = [];
  for (const { pkg, block } of examples) {
    const programs = toPrograms(block.code);
    const base = `${pkg.dir}-readme-${block.line}`;
    const formats = [['esm', 'mjs']];
    if (importedModules(block.code).every((m) => shipsCjs(m, packages))) formats.push(['cjs', 'cjs']);
    for (const [format, ext] of formats) {
      const file = join(dir, `${base}.${ext}`);
      writeFileSync(file, programs[format]);
      const r = runExample(consumer, file, env);
      const where = `${pkg.name} README.md:${block.line} (${format.toUpperCase()})`;
      log(
        `  ${r.ok ? 'ok  ' : 'FAIL'} ${where} ${(r.ms / 1000).toFixed(1)} s${r.leftOpen ? ' (left handles open: ended after its last statement)' : ''}`,
      );
      for (const line of r.stdout.trimEnd().split('\n').slice(0, 6)) if (line) log(`         | ${line}`);
      if (!r.ok) for (const line of r.stderr.trimEnd().split('\n').slice(0, 30)) log(`         ! ${line}`);
      results.push({ package: pkg.name, line: block.line, format, ok: r.ok, ms: r.ms, leftOpen: r.leftOpen });
    }
  }
  return results;
}

/** `npx critsec --help` in the consumer (the bin of the installed @critsec/cli). */
function cliHelp(consumer, env) {
  const r = run('npx', ['--no-install', 'critsec', '--help'], { cwd: consumer, env, timeout: 60_000 });
  const ok = r.status === 0 && /Usage: critsec/.test(r.stdout);
  log(`${ok ? 'ok  ' : 'FAIL'} npx critsec --help (exit ${r.status})`);
  for (const line of r.stdout.trimEnd().split('\n').slice(0, 40)) log(`         | ${line}`);
  if (!ok) log(`         ! ${r.stderr.trim()}`);
  return { ok, status: r.status, firstLine: r.stdout.split('\n')[0] ?? '' };
}

/** Collects the README examples of every public package, and of the root README. */
function collectExamples(packages) {
  const examples = [];
  const skipped = [];
  for (const pkg of packages) {
    const { runnable, skipped: s } = readmeExamples(pkg.name, join(root, 'packages', pkg.dir, 'README.md'));
    for (const block of runnable) examples.push({ pkg, block });
    for (const block of s) skipped.push({ package: pkg.name, line: block.line, reason: block.reason });
  }
  const project = { name: 'critsec (root)', dir: 'root' };
  const { runnable, skipped: s } = readmeExamples(project.name, join(root, 'README.md'));
  for (const block of runnable) examples.push({ pkg: project, block });
  for (const block of s) skipped.push({ package: project.name, line: block.line, reason: block.reason });
  return { examples, skipped };
}

/**
 * Checks every public package's tarball as the release built it (`nx run-many -t check-package`
 * in the copy, without its build dependency: the release's own build is what was published, and
 * building again would double the run's longest step).
 */
function checkTarballs(copy, env) {
  log('checking every package tarball the release built (nx run-many -t check-package)');
  const nx = { NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_SKIP_NX_CACHE: 'true', CI: 'true' };
  must(
    'npx',
    ['nx', 'run-many', '-t', 'check-package', '--exclude-task-dependencies', '--output-style=stream-without-prefixes'],
    { cwd: copy, env: { ...env, ...nx }, stdio: 'inherit' },
  );
}

async function main() {
  const started = Date.now();
  const packages = publicPackages();
  const { examples, skipped } = collectExamples(packages);
  const extra = [...new Set(examples.flatMap((e) => importedModules(e.block.code)))].filter(
    (m) => !packages.some((p) => p.name === m),
  );
  const upstream = must('npm', ['config', 'get', 'registry'], { cwd: root }).stdout.trim();
  const work = mkdtempSync(join(tmpdir(), 'critsec-release-'));
  const summary = { ok: false, packages: packages.length, upstream, workDir: work };
  let registry;
  try {
    registry = await startRegistry(work, upstream);
    Object.assign(summary, { registry: registry.url });
    log(
      `verdaccio ${registry.url} (pid ${registry.pid}); storage ${join(work, 'storage')}; other names from ${upstream}`,
    );
    const env = npmEnv(work, registry);
    const copy = copyCheckout(work);
    log(`copied the checkout to ${copy}`);
    const release = await releaseFromCopy(copy, registry, env);
    Object.assign(summary, {
      before: packages.map((p) => `${p.name}@${p.version}`),
      planned: release.planned,
      published: release.published,
      changelogs: release.changelogs,
      bumped: release.bumped,
    });
    log(`published ${release.published.length} (${release.bumped} at a new version): ${release.published.join(', ')}`);
    if (!flag('--no-check')) {
      checkTarballs(copy, env);
      summary.tarballsChecked = release.packages.length;
    }
    const consumer = join(work, 'consumer');
    const { installed, lockfile } = install(consumer, release.packages, extra, registry, env);
    summary.installed = installed.map((p) => `${p.name}@${p.version}`);
    summary.lockfile = lockfile;
    log(
      `installed ${installed.length} from ${registry.url} into ${consumer} (${lockfile.fromRegistry}/${lockfile.total} lockfile entries from the local registry)`,
    );
    const results = runExamples(consumer, examples, packages, env);
    summary.examples = {
      blocks: examples.length,
      run: results.length,
      esm: results.filter((r) => r.format === 'esm').length,
      cjs: results.filter((r) => r.format === 'cjs').length,
      passed: results.filter((r) => r.ok).length,
      failed: results.filter((r) => !r.ok).map((r) => `${r.package} README.md:${r.line} ${r.format}`),
      leftOpen: [
        ...new Set(results.filter((r) => r.leftOpen).map((r) => `${r.package} README.md:${r.line}`)),
      ],
      skipped,
    };
    summary.cli = cliHelp(consumer, env);
    summary.ok = summary.examples.failed.length === 0 && summary.cli.ok;
  } catch (e) {
    summary.error = e instanceof Error ? e.message : String(e);
    log(`FAILED: ${summary.error}`);
    for (const line of (registry?.output() ?? '').trimEnd().split('\n').slice(-20))
      log(`  verdaccio | ${line}`);
  } finally {
    await registry?.stop();
    if (flag('--keep')) log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
  summary.seconds = Math.round((Date.now() - started) / 1000);
  const e = summary.examples;
  if (e) {
    log(
      `README examples: ${e.passed}/${e.run} programs passed (${e.blocks} examples: ${e.esm} as ESM, ${e.cjs} as CJS), ${e.skipped.length} blocks not run:`,
    );
    for (const s of e.skipped) log(`  not run: ${s.package} README.md:${s.line} — ${s.reason}`);
  }
  log(`${summary.ok ? 'OK' : 'FAILED'} in ${summary.seconds} s`);
  const json = JSON.stringify(summary);
  if (option('--summary')) writeFileSync(option('--summary'), `${json}\n`);
  log(`summary ${json}`);
  process.exitCode = summary.ok ? 0 : 1;
}

/** Stops the registry child if this process is told to stop (the registry is a child of ours). */
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    if (activeRegistryPid !== undefined) {
      try {
        process.kill(activeRegistryPid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    process.exit(130);
  });
}
await main();
