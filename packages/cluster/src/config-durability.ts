/**
 * The `durability` of a cluster configuration (issue 27): where each member keeps its durable
 * protocol state (an LMDB store per member, `@critsec/store`), and the checks that go with it —
 * the algorithm must implement the crash-recovery contract, and a restarted peer is resumed.
 */
import { join } from 'node:path';
import { ConfigurationError, type ProcessId } from '@critsec/core';
import * as v from 'valibot';
import { ALGORITHMS } from './algorithm-resolve.js';

/** The configuration's `durability` key (see {@link ClusterDurabilityConfig}). */
export const durabilitySchema = v.optional(v.strictObject({ dir: v.pipe(v.string(), v.minLength(1)) }));

/**
 * Durable members (issue 27): every member commits its protocol state and its sessions to
 * `<dir>/member-<id>.lmdb` once per event-loop turn, before the messages that depend on it leave,
 * so a member killed at any instant restarts with `--recover` and rejoins under the same identity.
 */
export interface ClusterDurabilityConfig {
  /** The directory of the members' stores, relative to the configuration file (created on first start). */
  dir: string;
}

/** The store file of member `id` under the (resolved) durability directory `dir`: `<dir>/member-<id>.lmdb`. */
export function memberStorePath(dir: string, id: ProcessId): string {
  return join(dir, `member-${id}.lmdb`);
}

/** The names of the built-in algorithms that implement the crash-recovery contract. */
function crashRecoveryAlgorithms(): string[] {
  return ALGORITHMS.filter((d) => d.crashRecovery === true).map((d) => d.name);
}

/**
 * The checks a configuration with `durability` (or `onPeerRestart`) must pass: a built-in
 * algorithm must declare `crashRecovery: true` (a module's object is checked when a member builds
 * it); `'reset'` is refused for the built-in algorithms (a peer without its state would deadlock
 * them); `'resume'` needs `durability`, and `durability` needs `'resume'` (its default).
 * @throws ConfigurationError naming the way out.
 */
export function checkDurability(c: {
  algorithm: string;
  durability?: ClusterDurabilityConfig | undefined;
  transport?: { onPeerRestart?: 'refuse' | 'reset' | 'resume' | undefined } | undefined;
}): void {
  const builtIn = ALGORITHMS.find((d) => d.name === c.algorithm);
  const restart = c.transport?.onPeerRestart;
  if (restart === 'reset' && builtIn !== undefined) {
    throw new ConfigurationError(
      `cluster config: transport.onPeerRestart: 'reset' is refused for ${c.algorithm}: a member restarted without its state would deadlock the cluster; give the configuration a durability { dir } and restart members with --recover (their sessions resume), or leave it 'refuse' (the default without durability) and restart the whole cluster after a crash`,
    );
  }
  if (restart === 'resume' && c.durability === undefined) {
    throw new ConfigurationError(
      `cluster config: transport.onPeerRestart: 'resume' needs durability { dir }: only a member restored from its store can resume its sessions`,
    );
  }
  if (c.durability !== undefined && restart !== undefined && restart !== 'resume') {
    throw new ConfigurationError(
      `cluster config: durability needs transport.onPeerRestart 'resume' (its default with durability), not '${restart}': a durable member restarts with its sessions`,
    );
  }
  if (c.durability !== undefined && builtIn !== undefined && builtIn.crashRecovery !== true) {
    throw new ConfigurationError(
      `cluster config: durability needs an algorithm with crash recovery, and ${c.algorithm} has none; the algorithms that have it: ${crashRecoveryAlgorithms().join(', ')}`,
    );
  }
}
