/** Input checks shared by the factories (Kamei & Kakugawa 2017, Sec. 2: G undirected, no self-loops). */
import {
  ConfigurationError,
  type Graph,
  graphFromAdjacency,
  type ProcessId,
  ProtocolError,
} from '@critsec/core';

/**
 * Checks that `g` is a `Graph` of `@critsec/core` and re-validates its adjacency (symmetric, no
 * self-loop, ids in range), so a hand-made object cannot slip an asymmetric graph past the factory.
 * @throws ConfigurationError naming the problem.
 */
export function assertGraph(g: unknown, who: string): Graph {
  if (
    typeof g !== 'object' ||
    g === null ||
    typeof (g as Graph).n !== 'number' ||
    !Array.isArray((g as Graph).neighbors) ||
    !(g as Graph).neighbors.every((row) => Array.isArray(row))
  ) {
    throw new ConfigurationError(
      `${who}({ graph }): graph must be a Graph { n, neighbors } (ring(n), grid(r, c), star(l), complete(n), randomGraph(n, p), abilene().graph, graphFromAdjacency(…))`,
    );
  }
  const graph = graphFromAdjacency((g as Graph).neighbors);
  if (graph.n !== (g as Graph).n) {
    throw new ConfigurationError(
      `${who}: graph.n = ${(g as Graph).n} but neighbors lists ${graph.n} processes`,
    );
  }
  return graph;
}

/**
 * The error for a message from a process outside N_i ∪ {P_i} (dropped and reported: a correct
 * neighbour never sends one).
 */
export function notNeighbour(who: string, id: ProcessId, from: ProcessId, type: string): ProtocolError {
  return new ProtocolError(`${who}: P${id} got ${type} from P${from}, which is not in N_${id} ∪ {P${id}}`, {
    from,
  });
}
