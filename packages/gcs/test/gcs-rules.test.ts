/*
 * gcs() and kMutex() beyond validation: the `mx` option reaches every MUTIN (lmin's, kmex's,
 * kMutex's), and kMutex builds its Co-MUTIN factory once per n. Written against surviving
 * mutants of `npm run test:mutation` (README, "Tests").
 */
import { type CSFactory, type CSState, globalSpec, mutexSpec } from '@critsec/core';
import { type Coterie, majority } from '@critsec/coteries';
import { maekawa } from '@critsec/mutex';
import { createCluster, runWorkload } from '@critsec/harness';
import { SimNetwork } from '@critsec/transport-sim';
import { describe, expect, it } from 'vitest';
import { gcs, kMutex } from '../src/index.js';

/** Maekawa over `coterie`, recording the channel path and process of every object it makes. */
function recordingMx(coterie: Coterie): { mx: CSFactory; used: string[] } {
  const used: string[] = [];
  const inner = maekawa({ coterie });
  return {
    used,
    mx: (ctx) => {
      used.push(`P${ctx.id}@${ctx.endpoint.path}`);
      return inner(ctx);
    },
  };
}

describe('the mx option reaches every MUTIN', () => {
  it('gcs({ mx }): lmin/mx and kmex/mx of every process, and the GCS works over it', async () => {
    const coterie = majority(3);
    const { mx, used } = recordingMx(coterie);
    const cluster = createCluster({
      factory: gcs({ l: 1, k: 2, coterie, mx }),
      spec: globalSpec(1, 2, 3),
      initial: ['InCS', 'OutCS', 'OutCS'],
      seed: 7,
    });
    expect(used).toEqual([
      'P0@lmin/mx',
      'P0@kmex/mx',
      'P1@lmin/mx',
      'P1@kmex/mx',
      'P2@lmin/mx',
      'P2@kmex/mx',
    ]);
    const r = await runWorkload(cluster, { rounds: 2 });
    expect(r.ok, r.failure ?? '').toBe(true);
  });

  it('kMutex({ mx }): on the channel mx of every process, and the k-mutex works over it', async () => {
    const coterie = majority(3);
    const { mx, used } = recordingMx(coterie);
    const cluster = createCluster({ factory: kMutex({ k: 1, coterie, mx }), spec: mutexSpec(3), seed: 7 });
    expect(used).toEqual(['P0@mx', 'P1@mx', 'P2@mx']);
    const r = await runWorkload(cluster, { rounds: 2 });
    expect(r.ok, r.failure ?? '').toBe(true);
  });
});

describe('kMutex builds its Co-MUTIN(n − k) factory once per n', () => {
  it('a second process of the same factory does not check the coterie again; a fresh factory does', () => {
    let reads = 0;
    const coterie = new Proxy(majority(3), {
      get(target, key) {
        reads++;
        const v: unknown = Reflect.get(target, key);
        return typeof v === 'function' ? v.bind(target) : v; // its methods read private fields
      },
    });
    const initial: CSState[] = ['OutCS', 'OutCS', 'OutCS'];
    const readsToBuild = (factory: CSFactory, id: number): number => {
      const before = reads;
      factory({ id, n: 3, endpoint: new SimNetwork({ n: 3 }).endpoint(id), initial });
      return reads - before;
    };
    const shared = kMutex({ k: 2, coterie });
    readsToBuild(shared, 0);
    const reused = readsToBuild(shared, 1);
    const fresh = readsToBuild(kMutex({ k: 2, coterie }), 1);
    expect(reused).toBeGreaterThan(0); // MUTIN still checks each process against the coterie
    expect(reused).toBeLessThan(fresh); // but mutin()'s and maekawa()'s own checks ran once
  });
});
