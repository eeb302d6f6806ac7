import { ConfigurationError } from './errors.js';
import { isValidN, type ProcessId } from './process.js';

/**
 * An undirected communication graph over processes `0..n-1` (local-CS paper, Sec. 2): `N_i` is
 * `neighbors[i]`, sorted, without `i`. Symmetric by construction.
 */
export interface Graph {
  /** Number of processes. */
  readonly n: number;
  /** `neighbors[i]` = N_i: i's neighbours, sorted ascending, without i. */
  readonly neighbors: readonly (readonly ProcessId[])[];
}

/**
 * Builds a graph from an edge list.
 * @throws ConfigurationError for a bad `n`, an endpoint out of range, or a self-loop.
 */
export function graphFromEdges(n: number, edges: readonly (readonly [ProcessId, ProcessId])[]): Graph {
  if (!isValidN(n)) throw new ConfigurationError(`graph: n must be a positive integer, got ${String(n)}`);
  const sets = Array.from({ length: n }, () => new Set<ProcessId>());
  for (const [a, b] of edges) {
    for (const v of [a, b]) {
      if (!Number.isInteger(v) || v < 0 || v >= n) {
        throw new ConfigurationError(`graph: edge (${a}, ${b}) names process ${v}, expected 0..${n - 1}`);
      }
    }
    if (a === b) throw new ConfigurationError(`graph: self-loop (${a}, ${b}); N_i never contains i`);
    sets[a]!.add(b);
    sets[b]!.add(a);
  }
  return Object.freeze({
    n,
    neighbors: Object.freeze(sets.map((s) => Object.freeze([...s].sort((x, y) => x - y)))),
  });
}

/**
 * Validates an adjacency list (for instance read from JSON) and returns it as a {@link Graph}.
 * @throws ConfigurationError if it is not symmetric, has self-loops, duplicates or ids out of range.
 */
export function graphFromAdjacency(neighbors: readonly (readonly ProcessId[])[]): Graph {
  const n = neighbors.length;
  if (n < 1) throw new ConfigurationError('graph: adjacency list is empty; expected one entry per process');
  const edges: [ProcessId, ProcessId][] = [];
  for (let i = 0; i < n; i++) {
    const seen = new Set<ProcessId>();
    for (const j of neighbors[i]!) {
      if (!Number.isInteger(j) || j < 0 || j >= n) {
        throw new ConfigurationError(`graph: N_${i} contains ${String(j)}, expected ids 0..${n - 1}`);
      }
      if (j === i) throw new ConfigurationError(`graph: N_${i} contains ${i} itself`);
      if (seen.has(j)) throw new ConfigurationError(`graph: N_${i} lists ${j} twice`);
      seen.add(j);
      if (!neighbors[j]!.includes(i)) {
        throw new ConfigurationError(`graph: not symmetric: ${j} ∈ N_${i} but ${i} ∉ N_${j}`);
      }
      if (i < j) edges.push([i, j]);
    }
  }
  return graphFromEdges(n, edges);
}

/** `N_i ∪ {i}`, sorted: the closed neighbourhood the local CS counts over. */
export function closedNeighborhood(g: Graph, i: ProcessId): ProcessId[] {
  return [...g.neighbors[i]!, i].sort((a, b) => a - b);
}
