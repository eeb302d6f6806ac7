/**
 * The root `typedoc.json` (`npm run docs`, the workspace target `docs` of `npm test`) documents
 * exactly what users can import: every public package and no private one, and in each, exactly
 * the source files of its exported subpaths. TypeDoc's packages mode takes one entry-point glob
 * for all packages (`src/@(index|member|cs|transport).ts`), so a new subpath, or a new file of one
 * of those names that no subpath exports, must change it — this test says so, without a docs build.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

interface Manifest {
  name: string;
  private?: boolean;
  exports?: Record<string, string | { '@critsec/source'?: string }>;
}

interface TypedocConfig {
  entryPoints: string[];
  exclude: string[];
  packageOptions: { entryPoints: string[] };
  packagesRequiringDocumentation: string[];
}

const config = JSON.parse(readFileSync(join(root, 'typedoc.json'), 'utf8')) as TypedocConfig;

/** Every package directory with its manifest. */
const packages = readdirSync(join(root, 'packages'))
  .filter((dir) => existsSync(join(root, 'packages', dir, 'package.json')))
  .sort()
  .map((dir) => ({
    dir,
    manifest: JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) as Manifest,
  }));
const publicPackages = packages.filter((p) => p.manifest.private !== true);

describe('typedoc.json: the API docs cover exactly the public API', () => {
  it('documents every public package, requires docs of each, and excludes every private one', () => {
    expect(publicPackages.length).toBeGreaterThanOrEqual(15);
    expect(config.entryPoints).toEqual(['packages/*']);
    expect([...config.exclude].sort()).toEqual(
      packages.filter((p) => p.manifest.private === true).map((p) => `packages/${p.dir}`),
    );
    expect([...config.packagesRequiringDocumentation].sort()).toEqual(
      publicPackages.map((p) => p.manifest.name).sort(),
    );
  });

  it("takes as entry points exactly each public package's exported source files", () => {
    expect(config.packageOptions.entryPoints).toHaveLength(1);
    const glob = /^src\/@\(([a-z|-]+)\)\.ts$/.exec(config.packageOptions.entryPoints[0]!);
    expect(glob, 'the entry-point glob has the form src/@(a|b|…).ts').not.toBeNull();
    const names = glob![1]!.split('|');
    for (const { dir, manifest } of publicPackages) {
      const exported = Object.values(manifest.exports ?? {})
        .flatMap((t) => (typeof t === 'object' && t['@critsec/source'] ? [t['@critsec/source']] : []))
        .sort();
      const matched = names
        .map((name) => `./src/${name}.ts`)
        .filter((file) => existsSync(join(root, 'packages', dir, file)))
        .sort();
      expect(matched, `${manifest.name}: files the glob takes vs. exported subpaths`).toEqual(exported);
    }
  });
});
