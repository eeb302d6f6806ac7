// Each of 6 processes on a ring keeps at least 1 of itself and its 2 neighbours InCS (LMUTIN),
// at most 1 of them InCS (LMUTEX), and between 1 and 4 of 5 on a complete graph (LKCS).
import { createCluster, runWorkload } from '@critsec/testing';
import { complete, lkcs, lkcsPlan, localBounds, lmutex, lmutin, ring, safeInitial } from '@critsec/local-cs';

const graph = ring(6);
for (const [factory, spec] of [
  [lmutin({ graph, l: 1 }), localBounds(graph, 1, 3)],
  [lmutex({ graph, k: 1 }), localBounds(graph, 0, 1)],
] as const) {
  const r = await runWorkload(createCluster({ factory, spec, initial: safeInitial(spec) }), { rounds: 3 });
  console.log(r.ok, r.violation, r.entries);
}
const plan = lkcsPlan(complete(5), 1, 4); // leader P0; (L, K) = (2, 3) while nobody uses the sidetrack
const r = await runWorkload(
  createCluster({
    factory: lkcs({ graph: complete(5), l: 1, k: 4 }),
    spec: plan.spec,
    initial: safeInitial(plan.tightened),
  }),
  { rounds: 3 },
);
console.log(r.ok, r.violation, r.entries);
// true null 18
// true null 18
// true null 15
