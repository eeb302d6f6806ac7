/**
 * Runs the searches of the pinned cases and writes their fixtures (the worst schedule per measure,
 * with its figures; the worst controlled-mode walk). Re-run after a change that moves a figure,
 * and say why in the commit:
 *
 *   cd packages/integration-tests
 *   node --conditions=@critsec/source --import tsx test/worst-case/pin.ts [--timed|--controlled] [case…]
 *
 * With `--timed` (`--controlled`) only that part is searched and its fixture written:
 * `fixtures/worst-case/<case>.json` (`<case>.controlled.json`).
 */
import { writeFileSync } from 'node:fs';
import { searchWalks } from './controlled.js';
import {
  fixturePath,
  PINNED_CASES,
  type PinnedCase,
  type SearchKey,
  searchesOf,
  WALK_BUDGET,
  WALK_SEED,
} from './pinning.js';
import { search } from './search.js';

const args = process.argv.slice(2);
const timed = !args.includes('--controlled');
const controlled = !args.includes('--timed');
const only = args.filter((a) => !a.startsWith('--'));

async function timedSearches(name: string): Promise<PinnedCase['searches']> {
  const searches: Partial<Record<SearchKey, PinnedCase['searches'][SearchKey]>> = {};
  for (const [key, { space, budget }] of Object.entries(searchesOf(name)) as [
    SearchKey,
    ReturnType<typeof searchesOf>[SearchKey],
  ][]) {
    const t0 = performance.now();
    const r = await search(space, budget);
    if (r.failures.length > 0) throw new Error(`${name} ${key}: ${JSON.stringify(r.failures)}`);
    const { failures: _, ...kept } = r;
    searches[key] = kept;
    const w = r.worst;
    console.info(
      `${name} ${r.space}: ${r.schedules} schedules (${r.complete ? 'complete' : 'partial'}), ${r.events} events, ${((performance.now() - t0) / 1000).toFixed(1)} s; per pair mean ${r.perPairMean.toFixed(3)} max ${w.perPair.value}; sync ${w.sync.value}; entry ${w.entry.value}; exit ${w.exit.value}`,
    );
  }
  return searches as PinnedCase['searches'];
}

const json = (x: unknown) => `${JSON.stringify(x, null, 2)}\n`;

for (const name of PINNED_CASES) {
  if (only.length > 0 && !only.includes(name)) continue;
  if (timed) {
    const pinned: PinnedCase = { case: name, searches: await timedSearches(name) };
    writeFileSync(fixturePath(name), json(pinned));
  }
  if (controlled) {
    const r = await searchWalks(name, WALK_SEED, WALK_BUDGET);
    if (r.failures.length > 0) throw new Error(`${name} walks: ${r.failures.slice(0, 3).join('; ')}`);
    const { failures: _, ...kept } = r;
    writeFileSync(fixturePath(name, 'controlled'), json(kept));
    console.info(
      `${name} controlled walks (seed ${r.seed}): ${r.walks} walks, ${r.states} states; per pair mean ${r.perPairMean.toFixed(3)} max ${r.worst.value} (walk ${r.worst.walk})`,
    );
  }
}
