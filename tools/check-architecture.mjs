#!/usr/bin/env node
/**
 * Checks the dependency order DESIGN.md §2 draws: a package may depend (at run time) only on
 * packages of a lower layer — so nothing imports upward and there are no cycles — and its
 * sources may import only the `@critsec/*` packages its package.json declares as dependencies
 * (devDependencies such as @critsec/testing are for tests, never for `src/`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const LAYER = {
  core: 0,
  transport: 1,
  coteries: 1,
  'transport-sim': 2,
  'transport-tcp': 2,
  testing: 3,
  mutex: 4,
  complement: 4,
  'h-out-of-k': 4,
  'group-mutex': 4,
  mutin: 5,
  'local-cs': 5,
  gcs: 6,
  cli: 9,
  'integration-tests': 10,
};

const root = new URL('..', import.meta.url).pathname;
const problems = [];
const files = (dir) =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : /\.(ts|tsx|mts|cts|js|mjs)$/.test(f) ? [p] : [];
  });

for (const name of readdirSync(join(root, 'packages'))) {
  const dir = join(root, 'packages', name);
  let pkg;
  try {
    pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  } catch {
    continue;
  }
  const short = pkg.name?.replace(/^@critsec\//, '') ?? name;
  const layer = LAYER[short];
  if (layer === undefined) {
    problems.push(`${pkg.name}: not placed in the layer table of tools/check-architecture.mjs (and DESIGN.md §2)`);
    continue;
  }
  const deps = Object.keys(pkg.dependencies ?? {}).filter((d) => d.startsWith('@critsec/'));
  for (const d of deps) {
    const l = LAYER[d.replace('@critsec/', '')];
    if (l === undefined || l >= layer) problems.push(`${pkg.name} (layer ${layer}) depends on ${d} (layer ${l ?? '?'}): upward or sideways`);
  }
  let srcFiles = [];
  try {
    srcFiles = files(join(dir, 'src'));
  } catch {}
  for (const f of srcFiles) {
    const text = readFileSync(f, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, ''); // imports in doc examples do not count
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"](@critsec\/[a-z-]+)/g)) {
      if (m[1] !== pkg.name && !deps.includes(m[1])) {
        problems.push(`${f.replace(root, '')}: imports ${m[1]}, which ${pkg.name} does not declare in "dependencies"`);
      }
    }
  }
}

if (problems.length > 0) {
  console.error(`architecture check failed:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log('architecture check: every package depends only on lower layers; src imports match dependencies');
