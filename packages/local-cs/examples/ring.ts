import { createCluster, runWorkload } from '@critsec/harness';
import { complete, lkcs, lkcsPlan, localBounds, lmutex, lmutin, ring, safeInitial } from '@critsec/local-cs';

const graph = ring(6);
for (const [factory, spec] of [
  [lmutin({ graph, l: 1 }), localBounds(graph, 1, 3)], // ≥ 1 of each P_i and its two neighbours InCS
  [lmutex({ graph, k: 1 }), localBounds(graph, 0, 1)], // local mutual exclusion
] as const) {
  const r = await runWorkload(createCluster({ factory, spec, initial: safeInitial(spec) }), { rounds: 3 });
  console.log(r.ok, r.violation, r.entries); // true null 18
}
const plan = lkcsPlan(complete(5), 1, 4); // leader P0; (L_i, K_i) = (2, 3) while nobody uses the sidetrack
const c = createCluster({
  factory: lkcs({ graph: complete(5), l: 1, k: 4 }),
  spec: plan.spec,
  initial: safeInitial(plan.tightened),
});
console.log((await runWorkload(c, { rounds: 3 })).ok); // true
