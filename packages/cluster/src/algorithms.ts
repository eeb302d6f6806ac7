/*
 * The algorithms `critsec` runs, and the validation of everything that describes a cluster
 * before anything runs (DESIGN.md 3.4): `resolveCluster` picks the algorithm's family and lets it
 * validate its options and build its structure (coterie, arbiter, group quorum system, graph),
 * factory, safety spec, requests, initial configuration and the papers' bounds. Every bad value
 * is a `ConfigurationError` whose one-line message says what was wrong and what is accepted; the
 * CLI turns it into exit code 2.
 */
import { ALGORITHM_NAMES } from './catalog.js';
import { resolveGlobal } from './family-global.js';
import { resolveGroupMutex } from './family-group-mutex.js';
import { resolveHOutOfK } from './family-h-out-of-k.js';
import { resolveLocalCs } from './family-local-cs.js';
import { parseChoice } from './option-values.js';
import type { ClusterInput, ResolvedCluster } from './resolved.js';

/**
 * Validates a cluster description and builds everything it needs to run (see the module
 * comment). Nothing runs yet.
 *
 * @throws ConfigurationError (one line: what was wrong, what is accepted) for an unknown
 *   algorithm or any option its family refuses.
 */
export function resolveCluster(input: ClusterInput): ResolvedCluster {
  const algorithm = parseChoice('algorithm', input.algorithm, ALGORITHM_NAMES);
  switch (algorithm) {
    case 'h-out-of-k':
      return resolveHOutOfK(input);
    case 'group-mutex':
      return resolveGroupMutex(input);
    case 'local-cs':
      return resolveLocalCs(input);
    default:
      return resolveGlobal(algorithm, input);
  }
}

/** The command-line flag of each {@link ClusterInput} field that differs from its name. */
const FLAGS: Partial<Record<keyof ClusterInput, string>> = {
  localAlgorithm: 'algorithm',
  boundsFile: 'bounds',
};

/**
 * The command-line words that reproduce a resolved cluster: `--n N` and the algorithm's own
 * options (`--l 3 --k 10 --coterie grid`, `--k 3 --arbiter cube --h random`, …), and `--init`
 * when it is not the default.
 */
export function clusterArguments(c: ResolvedCluster): string[] {
  const words = [`--n ${c.n}`];
  for (const [key, value] of Object.entries(c.options)) {
    words.push(`--${FLAGS[key as keyof ClusterInput] ?? key} ${value}`);
  }
  if (c.init !== 'default') words.push(`--init ${c.init}`);
  return words;
}
