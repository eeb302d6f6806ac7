/*
 * ARCHITECTURE.md §4 names the files one message crosses, for the (l,k)-GCS over the simulator,
 * and how many are on the call stacks of one entry. This test measures both and fails when the
 * code and the map part: a refactor that moves a concern to another file updates the map.
 *
 * How: P6 of a (2,5)-GCS over grid(9) enters once; at every line of the simulator's trace (each
 * send, delivery, timer and state change of that entry) the call stack is captured and the
 * `packages/<pkg>/src/` files on it are kept.
 */
import { readFileSync } from 'node:fs';
import { globalSpec } from '@critsec/core';
import { grid } from '@critsec/coteries';
import { gcs } from '@critsec/gcs';
import { createCluster } from '@critsec/harness';
import { describe, expect, it } from 'vitest';

const MAP = readFileSync(new URL('../../../ARCHITECTURE.md', import.meta.url), 'utf8');
const WALK = MAP.slice(MAP.indexOf('## 4. '), MAP.indexOf('## 5. '));

async function filesOnTheWalk(faults: boolean): Promise<string[]> {
  const files = new Set<string>();
  let on = false;
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 200;
  const cluster = createCluster({
    factory: gcs({ l: 2, k: 5, coterie: grid(9) }),
    spec: globalSpec(2, 5, 9),
    ...(faults ? { faults: { drop: 0.1 } } : {}),
    trace: () => {
      if (!on) return;
      for (const m of new Error().stack!.matchAll(/packages\/([a-z-]+\/src\/[\w.-]+\.ts)/g)) files.add(m[1]!);
    },
  });
  try {
    await cluster.net.run();
    on = true;
    const entered = cluster.objects[6]!.entry();
    await cluster.net.run();
    await entered;
    expect(cluster.objects[6]!.state).toBe('InCS');
  } finally {
    on = false;
    Error.stackTraceLimit = limit;
    await cluster.close();
  }
  return [...files].sort();
}

describe('ARCHITECTURE.md §4: the walk of one message is the code’s', () => {
  for (const faults of [false, true]) {
    it(`faults ${faults ? 'on' : 'off'}: every file on the stacks is named in §4`, async () => {
      const files = await filesOnTheWalk(faults);
      const unnamed = files.filter(
        (f) => !WALK.includes(`\`${f}\``) && !WALK.includes(`\`${f.split('/').pop()}\``),
      );
      expect(unnamed, 'files a message crosses that ARCHITECTURE.md §4 does not name').toEqual([]);
      expect(files).toContain('gcs/src/compose.ts');
      expect(files).toContain('transport/src/mux.ts');
      if (faults) expect(files).toContain('transport/src/session.ts');
    });
  }

  it('the counts §4 gives are the measured ones', async () => {
    const off = (await filesOnTheWalk(false)).length;
    const on = (await filesOnTheWalk(true)).length;
    expect(WALK).toContain(`after it **${off}** (faults on: ${on})`);
  });
});
