import { hOutOfKSpec } from '@critsec/core';
import { uniformHKArbiter } from '@critsec/coteries';
import { hOutOfK } from '@critsec/h-out-of-k';
import { createCluster, runWorkload } from '@critsec/harness';

const [n, k] = [9, 3]; // 9 processes share 3 units
const factory = hOutOfK({ k, arbiter: uniformHKArbiter(n, k) });
const cluster = createCluster({ factory, spec: hOutOfKSpec(k, n), seed: 1 }); // checks Σ units ≤ k
const r = await runWorkload(cluster, { rounds: 5, request: (rng) => 1 + rng.int(k) }); // h ∈ 1..k
console.log(r.ok, r.entries, r.violation); // true 45 null
