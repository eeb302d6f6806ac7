#!/usr/bin/env node
/**
 * The `check-package` target (tools/nx-targets.mjs): checks the tarball one package would
 * publish, packed once, in one process. Run from the package directory:
 *
 *   node ../../tools/check-package.mjs
 *
 * 1. `npm pack` into a temporary directory (the very tarball `npm publish` would upload);
 * 2. publint `--strict` on that tarball (warnings fail too);
 * 3. attw (are the types wrong) on that tarball under its default profile: every resolution mode,
 *    node10 included — no problem is ignored;
 * 4. the metadata a user and a registry need: LICENSE in the tarball, `repository` (git URL and
 *    the package's `directory`), `homepage`, `bugs`, `keywords`; and every file the manifest points
 *    to (`exports` under every condition, `typesVersions`, `main`, `module`, `types`, `bin`) is in
 *    the tarball — no export points into sources that are not shipped.
 *
 * Before this script the target ran `publint --strict && attw --pack .`, which packed the package
 * twice and started two programs; this one packs once (see the report of issue 16 for timings).
 * Exit code 1 and one line per finding when anything fails.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';

const pkgDir = process.cwd();
const workspaceRoot = resolve(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));

/** Packs `pkgDir` with npm (no lifecycle scripts) and returns the tarball's bytes and file list. */
function pack() {
  const dest = mkdtempSync(join(tmpdir(), 'critsec-pack-'));
  try {
    const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dest], {
      cwd: pkgDir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const [info] = JSON.parse(out);
    const tarball = readFileSync(join(dest, info.filename));
    return { tarball, files: new Set(info.files.map((f) => f.path)) };
  } finally {
    rmSync(dest, { recursive: true, force: true });
  }
}

/** Every relative file path a manifest field points to (exports under every condition, …). */
function pointedTo(m) {
  const out = [];
  const walk = (value, where) => {
    if (typeof value === 'string') out.push([value, where]);
    else if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${where}[${i}]`));
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, `${where}[${JSON.stringify(k)}]`);
    }
  };
  for (const field of ['exports', 'typesVersions', 'main', 'module', 'types', 'bin']) walk(m[field], field);
  return out;
}

/** The metadata findings (one string each). */
function metadataFindings(files) {
  const found = [];
  if (!files.has('LICENSE')) found.push('LICENSE is not in the tarball');
  const dir = relative(workspaceRoot, pkgDir).split('\\').join('/');
  const repo = manifest.repository;
  if (typeof repo !== 'object' || !/^git\+https:\/\/.+\.git$/.test(repo.url ?? '')) {
    found.push(
      `repository must be { type: 'git', url: 'git+https://….git', directory }, got ${JSON.stringify(repo)}`,
    );
  } else if (repo.directory !== dir) {
    found.push(`repository.directory is ${JSON.stringify(repo.directory)}, expected "${dir}"`);
  }
  if (!/^https:\/\//.test(manifest.homepage ?? ''))
    found.push(`homepage is missing or not https: ${manifest.homepage}`);
  if (!/^https:\/\//.test(manifest.bugs?.url ?? ''))
    found.push(`bugs.url is missing or not https: ${manifest.bugs?.url}`);
  if (!Array.isArray(manifest.keywords) || manifest.keywords.length === 0) found.push('keywords are missing');
  for (const [target, where] of pointedTo(manifest)) {
    if (!target.startsWith('./')) continue; // typesVersions keys map to relative targets; bare names are not files
    const path = target.slice(2);
    if (path.includes('*')) continue;
    if (!files.has(path)) found.push(`${where} points to ${target}, which is not in the tarball`);
  }
  return found;
}

async function main() {
  const { tarball, files } = pack();
  const findings = metadataFindings(files);

  const bytes = tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength);
  const lint = await publint({ pack: { tarball: bytes }, strict: true });
  for (const message of lint.messages) {
    findings.push(`publint ${message.type}: ${formatMessage(message, lint.pkg) ?? message.code}`);
  }

  const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(tarball)));
  if (!analysis.types) findings.push('attw: the package ships no types');
  else {
    for (const problem of analysis.problems) {
      const at = [problem.entrypoint, problem.resolutionKind].filter(Boolean).join(' ');
      findings.push(`attw ${problem.kind}${at ? ` (${at})` : ''}`);
    }
  }

  const name = `${manifest.name}@${manifest.version}`;
  if (findings.length > 0) {
    for (const f of findings) console.error(`${name}: ${f}`);
    process.exitCode = 1;
  } else {
    const entrypoints = analysis.types ? Object.keys(analysis.entrypoints).length : 0;
    console.log(
      `${name}: ${files.size} files packed; publint --strict clean; attw clean under its default profile ` +
        `(${entrypoints} entrypoints × node10, node16-cjs, node16-esm, bundler); LICENSE, repository, homepage, bugs, ` +
        'keywords present; every exports/types target shipped',
    );
  }
}

await main();
