/**
 * The algorithms under test, built from their packages' public factories, with the problem
 * each claims to solve (what the safety monitor checks) and its initial configuration.
 */
import { type CSFactory, type CSState, type GlobalSpec, globalSpec, mutexSpec } from '@critsec/core';
import { grid } from '@critsec/coteries';
import { gcs, kMutex } from '@critsec/gcs';
import { maekawa, ricartAgrawala } from '@critsec/mutex';
import { mutin } from '@critsec/mutin';
import { defaultInitial } from '@critsec/harness';

/** An algorithm on a cluster of n processes. */
export interface AlgorithmCase {
  readonly name: string;
  readonly spec: GlobalSpec;
  readonly factory: CSFactory;
  /** The first l processes InCS (`defaultInitial`), the rest OutCS. */
  readonly initial: readonly CSState[];
}

function make(name: string, spec: GlobalSpec, factory: CSFactory): AlgorithmCase {
  return { name, spec, factory, initial: defaultInitial(spec) };
}

/** Maekawa over the grid coterie: mutual exclusion. */
export function maekawaCase(n: number): AlgorithmCase {
  return make(`maekawa (grid, n = ${n})`, mutexSpec(n), maekawa({ coterie: grid(n) }));
}

/** Ricart–Agrawala: mutual exclusion with 2(n−1) messages. */
export function ricartAgrawalaCase(n: number): AlgorithmCase {
  return make(`ricartAgrawala (n = ${n})`, mutexSpec(n), ricartAgrawala());
}

/** MUTIN(l) over the grid coterie with Maekawa as mx: l-mutual inclusion, the (l,n)-CS. */
function mutinCase(n: number, l: number): AlgorithmCase {
  return make(
    `mutin (l = ${l}, grid, n = ${n})`,
    globalSpec(l, n, n),
    mutin({ l, coterie: grid(n), mx: maekawa({ coterie: grid(n) }) }),
  );
}

/** k-mutual exclusion = Co-MUTIN(n−k) over the grid coterie: the (0,k)-CS. */
function kMutexCase(n: number, k: number): AlgorithmCase {
  return make(`kMutex (k = ${k}, grid, n = ${n})`, globalSpec(0, k, n), kMutex({ k, coterie: grid(n) }));
}

/** The (l,k)-GCS = compose(MUTIN(l), Co-MUTIN(n−k)) over the grid coterie. */
export function gcsCase(n: number, l: number, k: number): AlgorithmCase {
  return make(
    `gcs (l = ${l}, k = ${k}, grid, n = ${n})`,
    globalSpec(l, k, n),
    gcs({ l, k, coterie: grid(n) }),
  );
}

/** One case per algorithm, for the algorithm × transport matrix on n processes (n ≥ 4). */
export function matrixCases(n: number): AlgorithmCase[] {
  return [maekawaCase(n), ricartAgrawalaCase(n), mutinCase(n, 1), kMutexCase(n, 2), gcsCase(n, 1, 3)];
}
