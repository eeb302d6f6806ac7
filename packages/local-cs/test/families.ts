import type { CSFactory, CSState, Graph, LocalSpec } from '@critsec/core';
import type { CSComplianceSetup } from '@critsec/testing/cs';
import { type Bounds, localBounds, safeInitial } from '../src/config.js';
import {
  abilene,
  complete,
  grid,
  lkcs,
  lkcsPlan,
  lmutex,
  lmutin,
  randomGraph,
  ring,
  star,
} from '../src/index.js';

/** One instance of a local CS problem with the algorithm that solves it. */
export interface Instance {
  readonly name: string;
  readonly graph: Graph;
  readonly factory: CSFactory;
  readonly spec: LocalSpec;
  readonly initial: readonly CSState[];
  /** LKCS: the tightened (L_i, K_i) it keeps when its sidetrack is not in use. */
  readonly tightened?: LocalSpec;
}

/** What `csCompliance` needs of an instance (the tightened spec drives the sequential workload). */
export function setupOf(
  x: Instance,
): Pick<CSComplianceSetup, 'name' | 'factory' | 'spec' | 'sequentialSpec' | 'initial'> {
  return { name: x.name, factory: x.factory, spec: x.spec, sequentialSpec: x.tightened, initial: x.initial };
}

const full = (_i: number, d: number) => d + 1;

function lmutinInstance(name: string, graph: Graph, l: Bounds): Instance {
  const spec = localBounds(graph, l, full);
  return { name: `lmutin ${name}`, graph, factory: lmutin({ graph, l }), spec, initial: safeInitial(spec) };
}

function lmutexInstance(name: string, graph: Graph, k: Bounds): Instance {
  const spec = localBounds(graph, 0, k);
  return { name: `lmutex ${name}`, graph, factory: lmutex({ graph, k }), spec, initial: safeInitial(spec) };
}

function lkcsInstance(name: string, graph: Graph, l: Bounds, k: Bounds): Instance {
  const plan = lkcsPlan(graph, l, k);
  return {
    name: `lkcs ${name}`,
    graph,
    factory: lkcs({ graph, l, k }),
    spec: plan.spec,
    tightened: plan.tightened,
    initial: safeInitial(plan.tightened),
  };
}

/** LMUTIN on every family: ring, grid, star, complete, random, Abilene. */
export const lmutinFamilies = (): Instance[] => [
  lmutinInstance('ring:6 l=1', ring(6), 1),
  lmutinInstance('grid:3x3 l=2/1', grid(3, 3), (_i, d) => (d >= 3 ? 2 : 1)),
  lmutinInstance('star:5 l=1', star(5), 1),
  lmutinInstance('complete:5 l=2', complete(5), 2),
  lmutinInstance('random:8:0.3 l=1', randomGraph(8, 0.3, 7), 1),
  lmutinInstance('abilene l=1', abilene().graph, 1),
];

/** LMUTEX on every family. */
export const lmutexFamilies = (): Instance[] => [
  lmutexInstance('ring:6 k=1', ring(6), 1),
  lmutexInstance('grid:3x3 k=2', grid(3, 3), 2),
  lmutexInstance('star:5 k=1', star(5), 1),
  lmutexInstance('complete:5 k=2', complete(5), 2),
  lmutexInstance('random:8:0.3 k=2', randomGraph(8, 0.3, 7), 2),
  lmutexInstance('abilene k=1', abilene().graph, 1),
];

/** LKCS where its preconditions hold and it is live (README: where LKCS applies). */
export const lkcsFamilies = (): Instance[] => [
  lkcsInstance('complete:5 (1,4)', complete(5), 1, 4),
  lkcsInstance('complete:6 (1,4)', complete(6), 1, 4),
  lkcsInstance('complete:7 (2,6)', complete(7), 2, 6),
];
