/**
 * Graph builders for the generalized local CS (Kamei & Kakugawa, "An asynchronous message-passing
 * distributed algorithm for the generalized local critical section problem", Algorithms 10(2):38,
 * 2017, Sec. 2.1: an undirected graph G = (V, E), `N_i` the neighbours of `P_i`). Every builder
 * returns a validated `Graph` of `@critsec/core` (symmetric, no self-loops); {@link parseGraph}
 * reads the `ring:20`, `grid:5x5`, `star:8`, `complete:6`, `random:30:0.2`, `abilene` notation
 * the CLI uses, and {@link graphFromJson} a JSON file's contents.
 */
import { ConfigurationError, createRng, type Graph, graphFromAdjacency, graphFromEdges } from '@critsec/core';
import { abilene } from './abilene.js';
import { gnpEdges } from './gnp.js';

function size(what: string, n: unknown, min: number): number {
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < min) {
    throw new ConfigurationError(`${what}: expected an integer ≥ ${min}, got ${String(n)}`);
  }
  return n;
}

/** The ring `0 − 1 − … − (n−1) − 0` (`|N_i| = 2`; n ≥ 3). @throws ConfigurationError for n < 3. */
export function ring(n: number): Graph {
  size('ring(n)', n, 3);
  return graphFromEdges(
    n,
    Array.from({ length: n }, (_, i) => [i, (i + 1) % n] as const),
  );
}

/**
 * The `rows × cols` 2-D grid (4-neighbourhood, no wrap-around); process `r·cols + c` sits at row
 * `r`, column `c`. @throws ConfigurationError unless both are integers ≥ 1.
 */
export function grid(rows: number, cols: number = rows): Graph {
  size('grid(rows)', rows, 1);
  size('grid(cols)', cols, 1);
  const edges: [number, number][] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const i = r * cols + c;
      if (c + 1 < cols) edges.push([i, i + 1]);
      if (r + 1 < rows) edges.push([i, i + cols]);
    }
  }
  return graphFromEdges(rows * cols, edges);
}

/** The star with centre `0` and `leaves` leaves `1..leaves` (n = leaves + 1). */
export function star(leaves: number): Graph {
  size('star(leaves)', leaves, 1);
  return graphFromEdges(
    leaves + 1,
    Array.from({ length: leaves }, (_, i) => [0, i + 1] as const),
  );
}

/** The complete graph `K_n`: the local problem is then the global (l,k)-CS one. */
export function complete(n: number): Graph {
  size('complete(n)', n, 1);
  const edges: [number, number][] = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) edges.push([i, j]);
  return graphFromEdges(n, edges);
}

/**
 * A connected Erdős–Rényi graph: each pair is an edge with probability `p`, drawn from `seed`
 * (deterministic) in O(n + edges) time and memory (Batagelj & Brandes 2005: one draw per edge,
 * not per pair; `random:100000:0.0001` takes well under a second); isolated parts are then
 * joined to the component of process 0 by one edge each, so that every process has a neighbour.
 * @throws ConfigurationError unless n ≥ 2 and 0 ≤ p ≤ 1.
 */
export function randomGraph(n: number, p: number, seed = 1): Graph {
  size('randomGraph(n)', n, 2);
  if (typeof p !== 'number' || !(p >= 0 && p <= 1)) {
    throw new ConfigurationError(`randomGraph(p): expected a probability 0 ≤ p ≤ 1, got ${String(p)}`);
  }
  const rnd = createRng(seed).next; // the project's one PRNG
  const edges = gnpEdges(n, p, rnd);
  // join components: union-find, then link each component's smallest member to a random earlier one
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]!]!;
    return x;
  };
  for (const [a, b] of edges) parent[find(a)] = find(b);
  for (let i = 1; i < n; i++) {
    if (find(i) !== find(0)) {
      const j = Math.floor(rnd() * i);
      edges.push([j, i]);
      parent[find(i)] = find(j);
    }
  }
  return graphFromEdges(n, edges);
}

/**
 * Reads a graph from JSON: `{ "neighbors": [[1, 2], [0], [0]] }` (an adjacency list, validated
 * symmetric) or `{ "n": 3, "edges": [[0, 1], [0, 2]] }`.
 * @throws ConfigurationError for anything else (names the field).
 */
export function graphFromJson(json: unknown): Graph {
  if (typeof json === 'object' && json !== null) {
    const o = json as { neighbors?: unknown; n?: unknown; edges?: unknown };
    if (Array.isArray(o.neighbors)) {
      if (!o.neighbors.every((row) => Array.isArray(row))) {
        throw new ConfigurationError('graph JSON: "neighbors" must be an array of arrays of process ids');
      }
      return graphFromAdjacency(o.neighbors as number[][]);
    }
    if (Array.isArray(o.edges)) {
      const n = size('graph JSON "n"', o.n, 1);
      if (!o.edges.every((e) => Array.isArray(e) && e.length === 2)) {
        throw new ConfigurationError('graph JSON: "edges" must be an array of [a, b] pairs');
      }
      return graphFromEdges(n, o.edges as [number, number][]);
    }
  }
  throw new ConfigurationError(
    'graph JSON: expected { "neighbors": [[…], …] } or { "n": N, "edges": [[a, b], …] }',
  );
}

/**
 * Parses the CLI's graph notation: `ring:N`, `grid:RxC` (or `grid:N` for N×N), `star:L` (L
 * leaves), `complete:N`, `random:N:P[:SEED]`, `abilene`.
 * @throws ConfigurationError naming the notation for anything else.
 */
export function parseGraph(text: string): Graph {
  const [kind, ...args] = String(text).trim().split(':');
  const num = (s: string | undefined): number => (s === undefined || s === '' ? Number.NaN : Number(s));
  switch (kind) {
    case 'ring':
      return ring(num(args[0]));
    case 'grid': {
      const [r, c] = (args[0] ?? '').split('x');
      return grid(num(r), c === undefined ? num(r) : num(c));
    }
    case 'star':
      return star(num(args[0]));
    case 'complete':
      return complete(num(args[0]));
    case 'random':
      return randomGraph(num(args[0]), num(args[1]), args[2] === undefined ? 1 : num(args[2]));
    case 'abilene':
      return abilene().graph;
    default:
      throw new ConfigurationError(
        `graph "${text}": expected ring:N, grid:RxC, star:L, complete:N, random:N:P[:SEED] or abilene`,
      );
  }
}

/** Hop distances from `from` to every process (breadth-first; `Infinity` when unreachable). */
export function distances(g: Graph, from: number): number[] {
  const d = new Array<number>(g.n).fill(Number.POSITIVE_INFINITY);
  d[from] = 0;
  const queue = [from];
  for (let h = 0; h < queue.length; h++) {
    const u = queue[h]!;
    for (const v of g.neighbors[u]!) {
      if (d[v] === Number.POSITIVE_INFINITY) {
        d[v] = d[u]! + 1;
        queue.push(v);
      }
    }
  }
  return d;
}
