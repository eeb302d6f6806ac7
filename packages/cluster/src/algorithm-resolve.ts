/*
 * The algorithms `critsec` runs — a list of descriptors (the plug-in contract of @critsec/core,
 * descriptor.ts), ours by default and any a user passes — and the validation of everything that
 * describes a cluster before anything runs (DESIGN.md 3.4): `resolveCluster` finds the
 * descriptor by name, checks the parameters against its schema, and lets it build the structure
 * (coterie, arbiter, group quorum system, graph), factory, safety spec, requests, initial
 * configuration and the paper's bounds, weighing the structure's memory first (algorithm-footprint.ts).
 * Every bad value is a `ConfigurationError` whose one-line message says what was wrong and what
 * is accepted; the CLI turns it into exit code 2.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { type AlgorithmDescriptor, type BuildContext, ConfigurationError } from '@critsec/core';
import { checkParams, parseInteger } from '@critsec/core/kit';
import { gcsDescriptor, kMutexDescriptor } from '@critsec/gcs';
import { groupMutexDescriptor } from '@critsec/group-mutex';
import { hOutOfKDescriptor } from '@critsec/h-out-of-k';
import { localCsDescriptor } from '@critsec/local-cs';
import { maekawaDescriptor, ricartAgrawalaDescriptor } from '@critsec/mutex';
import { mutinDescriptor } from '@critsec/mutin';
import { checkFootprint } from './algorithm-footprint.js';
import type { ClusterInput, ResolvedCluster } from './algorithm-resolved.js';

/** Any algorithm's descriptor, whatever its parameters. */
// biome-ignore lint/suspicious/noExplicitAny: a list holds descriptors of different parameter schemas
export type AnyDescriptor = AlgorithmDescriptor<any>;

/** The algorithms critsec ships, in the order the CLI lists them. */
export const ALGORITHMS: readonly AnyDescriptor[] = [
  maekawaDescriptor,
  ricartAgrawalaDescriptor,
  mutinDescriptor,
  kMutexDescriptor,
  gcsDescriptor,
  hOutOfKDescriptor,
  groupMutexDescriptor,
  localCsDescriptor,
];

/**
 * Finds the descriptor named `name` in `algorithms`.
 * @throws ConfigurationError listing the names when there is none.
 */
export function findAlgorithm(
  name: string,
  algorithms: readonly AnyDescriptor[] = ALGORITHMS,
): AnyDescriptor {
  const found = algorithms.find((d) => d.name === name);
  if (found !== undefined) return found;
  throw new ConfigurationError(
    `unknown algorithm '${name}'; accepted: ${algorithms.map((d) => d.name).join(', ')}`,
  );
}

/**
 * The build context of a run on this machine: weighs against this process's heap, reads files
 * relative to `baseDir` (a cluster configuration's directory; default the working directory).
 */
export function buildContext(baseDir?: string): BuildContext {
  const at = (path: string) => (baseDir === undefined || isAbsolute(path) ? path : resolve(baseDir, path));
  return {
    weigh: (estimate) => {
      checkFootprint(estimate);
    },
    readJson: (path, what) => {
      try {
        return JSON.parse(readFileSync(at(path), 'utf8'));
      } catch (err) {
        throw new ConfigurationError(`${what} ${path}: ${(err as Error).message}`, { cause: err });
      }
    },
    isFile: (path) => existsSync(at(path)) && statSync(at(path)).isFile(),
  };
}

/** What {@link resolveCluster} may be given beside the cluster. */
export interface ResolveOptions {
  /** The algorithms to find the name among (default {@link ALGORITHMS}; add your own descriptors). */
  readonly algorithms?: readonly AnyDescriptor[];
  /** Where relative file parameters are read from (default the working directory). */
  readonly baseDir?: string;
}

/**
 * Validates a cluster description and builds everything it needs to run (see the module
 * comment). Nothing runs yet.
 *
 * @throws ConfigurationError (one line: what was wrong, what is accepted) for an unknown
 *   algorithm, a parameter it does not take, or any value its descriptor refuses.
 */
export function resolveCluster(input: ClusterInput, options: ResolveOptions = {}): ResolvedCluster {
  const descriptor = findAlgorithm(input.algorithm, options.algorithms);
  const given = Object.entries(input.params ?? {}).filter(([, value]) => value !== undefined);
  const values = checkParams(descriptor.name, descriptor.params, Object.fromEntries(given));
  const n = input.n === undefined ? undefined : parseInteger('n', input.n, 1);
  const built = descriptor.build(values, n, buildContext(options.baseDir));
  return { ...built, algorithm: descriptor.name, title: descriptor.title };
}

/**
 * The command-line words that reproduce a resolved cluster: `--n N` and the algorithm's own
 * parameters (`--l 3 --k 10 --coterie grid`, `--k 3 --arbiter cube --h random`, …), and `--init`
 * when it is not the default.
 */
export function clusterArguments(c: ResolvedCluster): string[] {
  const words = [`--n ${c.n}`];
  for (const [key, value] of Object.entries(c.options)) words.push(`--${key} ${value}`);
  if (c.init !== 'default') words.push(`--init ${c.init}`);
  return words;
}
