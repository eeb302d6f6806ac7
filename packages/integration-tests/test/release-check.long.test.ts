/**
 * `npm run release:check` (tools/release-check.mjs) end to end: the real `npm run release`
 * (`changeset version`, build, `changeset publish`) in a throwaway copy of the checkout, every
 * public package published to a throwaway verdaccio on localhost at its bumped version (the
 * checkout itself left untouched), installed by name@version from it
 * into a fresh consumer project, every README example run there as ESM and as CJS, and
 * `npx critsec --help`; every published tarball checked (publint, attw, metadata) from the
 * release's own build. Slow (one build, a registry, fifteen publishes, one install): long suite only.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

interface Summary {
  ok: boolean;
  registry: string;
  before: string[];
  planned: Record<string, string>;
  published: string[];
  changelogs: string[];
  bumped: number;
  tarballsChecked: number;
  installed: string[];
  lockfile: { total: number; fromRegistry: number };
  examples: {
    blocks: number;
    run: number;
    esm: number;
    cjs: number;
    passed: number;
    failed: string[];
    skipped: { package: string }[];
  };
  cli: { ok: boolean; firstLine: string };
  error?: string;
}

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  exports?: Record<string, { require?: unknown }>;
}

/** Every public package's manifest, by directory name. */
function publicManifests(): Manifest[] {
  const out: Manifest[] = [];
  for (const dir of readdirSync(join(root, 'packages')).sort()) {
    let manifest: Manifest;
    try {
      manifest = JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    if (manifest.private !== true) out.push(manifest);
  }
  return out;
}

/** Every public package as `name@version`, read from its package.json. */
const publicPackages = (): string[] => publicManifests().map((m) => `${m.name}@${m.version}`);

/** The fenced ts/js blocks of the public packages' READMEs and the root README. */
function readmeBlocks(): number {
  let count =
    readFileSync(join(root, 'README.md'), 'utf8').match(/^```(ts|typescript|js|javascript)\s*$/gm)?.length ??
    0;
  for (const spec of publicPackages()) {
    const dir = spec.slice('@critsec/'.length, spec.lastIndexOf('@'));
    const readme = readFileSync(join(root, 'packages', dir, 'README.md'), 'utf8');
    count += readme.match(/^```(ts|typescript|js|javascript)\s*$/gm)?.length ?? 0;
  }
  return count;
}

describe('npm run release:check', () => {
  const dir = mkdtempSync(join(tmpdir(), 'critsec-release-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('releases (version, build, publish) every public package to a local registry from a copy, installs them from it and runs every README example', () => {
    const summaryFile = join(dir, 'summary.json');
    const gitStatusBefore = execFileSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' });
    let output = '';
    try {
      output = execFileSync(
        process.execPath,
        ['tools/release-check.mjs', '--summary', summaryFile],
        {
          cwd: root,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
          maxBuffer: 64 << 20,
        },
      );
    } catch (e) {
      output = String((e as { stdout?: string }).stdout ?? e);
    }
    const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as Summary;
    expect(summary.error, output).toBeUndefined();
    // the checkout is not modified: its versions are still the ones before the release
    const before = publicPackages();
    expect(before.length).toBeGreaterThanOrEqual(15);
    expect(summary.before).toEqual(before);
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' })).toBe(
      gitStatusBefore,
    );
    // published: every public package at the version `changeset status` planned (else unchanged)
    const expected = before.map((spec) => {
      const name = spec.slice(0, spec.lastIndexOf('@'));
      return `${name}@${summary.planned[name] ?? spec.slice(spec.lastIndexOf('@') + 1)}`;
    });
    expect(summary.published).toEqual(expected);
    expect(summary.tarballsChecked).toBe(expected.length);
    expect(summary.installed).toEqual(expected);
    // each pending changeset bumped what it names: with changesets pending, something is new
    const pending = readdirSync(join(root, '.changeset')).filter(
      (f) => f.endsWith('.md') && f !== 'README.md',
    );
    if (pending.length > 0) expect(summary.bumped).toBeGreaterThan(0);
    expect(summary.changelogs).toEqual(
      expected.filter((p) => summary.planned[p.slice(0, p.lastIndexOf('@'))]),
    );
    expect(summary.registry).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(summary.lockfile.fromRegistry).toBe(summary.lockfile.total);
    expect(summary.examples.blocks + summary.examples.skipped.length).toBe(readmeBlocks());
    expect(summary.examples.blocks).toBeGreaterThan(0);
    expect(summary.examples.esm).toBe(summary.examples.blocks);
    // every public package ships CommonJS today, so every example also runs as CJS
    expect(publicManifests().every((m) => m.exports?.['.']?.require !== undefined)).toBe(true);
    expect(summary.examples.cjs).toBe(summary.examples.blocks);
    expect(summary.examples.run).toBe(summary.examples.esm + summary.examples.cjs);
    expect(summary.examples.failed, output).toEqual([]);
    expect(summary.examples.passed).toBe(summary.examples.run);
    expect(summary.cli.ok, output).toBe(true);
    expect(summary.ok).toBe(true);
  });
});
