/*
 * What describes a cluster — the algorithm's name, n and its parameters, as the command line and
 * the cluster configuration give them (`ClusterInput`) — and, once its descriptor has validated
 * and built it, ready to run (`ResolvedCluster`).
 */
import type { BuiltAlgorithm, ParamValue } from '@critsec/core';

/** What describes a cluster, as given on the command line (strings) or by a program (numbers). */
export interface ClusterInput {
  /** The descriptor's name: `mutex`, `ricart-agrawala`, `mutin`, `kmutex`, `gcs`, `h-out-of-k`, `group-mutex`, `local-cs`, or a user's. */
  readonly algorithm: string;
  /** Number of processes (default: the descriptor's; local-cs: the graph's). */
  readonly n?: number | string;
  /** The algorithm's parameters by name (its descriptor's `params`; e.g. `{ l: 3, k: 10, coterie: 'grid' }`; an `undefined` value is left out). */
  readonly params?: Readonly<Record<string, ParamValue | undefined>>;
}

/** A validated cluster description, ready to run: what its descriptor built, with its name and title. */
export interface ResolvedCluster extends BuiltAlgorithm {
  /** The algorithm's name (its descriptor's). */
  readonly algorithm: string;
  /** The algorithm in one line, for titles (its descriptor's `title`). */
  readonly title: string;
}
