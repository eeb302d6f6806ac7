/**
 * How a cluster member finds its algorithm (issue #6): by name in a registry that its member
 * program passes in (`runClusterNode({ algorithms })`; `runNode` passes the algorithm that
 * `resolveCluster` built), or else by module path / package specifier. Either way the result
 * exports `createFactory(params, cluster)` returning the {@link CSFactory} to run — the plug-in
 * point for every CS object, including users' own.
 */
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigurationError, type CSFactory, type CSState } from '@critsec/core';
import { namesAModule } from './algorithm-name.js';
import { ALGORITHMS, type AnyDescriptor } from './algorithm-resolve.js';

/** What a cluster algorithm module exports (or a registry holds under a name). */
export interface ClusterAlgorithmModule {
  /**
   * Makes the factory from the configuration's `params` (parsed JSON; validate it and throw
   * `ConfigurationError` when it is wrong).
   */
  createFactory(
    params: unknown,
    cluster: { readonly n: number; readonly initial: readonly CSState[] },
  ): CSFactory<unknown> | CSFactory;
}

/**
 * Algorithms by the name a cluster configuration's `algorithm` gives them, as a member program
 * passes them to `loadClusterAlgorithm` (and `runClusterNode({ algorithms })`).
 */
export type ClusterAlgorithmRegistry = Readonly<Record<string, ClusterAlgorithmModule>>;

/**
 * Finds the algorithm module named by `algorithm`: the entry of that name in `registry` (own
 * properties only), else the module imported from `algorithm` as an absolute path or a package
 * specifier (relative paths must be resolved by the caller first) — its `createFactory` export,
 * or its default export's.
 *
 * @param registry - the caller's algorithms by name (default: none, so only modules are loaded).
 * @throws ConfigurationError when a registry entry has no `createFactory`, or the module cannot be
 *   imported or exports no `createFactory`; the message lists the registry's names.
 */
export async function loadClusterAlgorithm(
  algorithm: string,
  registry: ClusterAlgorithmRegistry = {},
): Promise<ClusterAlgorithmModule> {
  if (Object.hasOwn(registry, algorithm)) {
    const entry = registry[algorithm] as Partial<ClusterAlgorithmModule> | undefined;
    if (typeof entry?.createFactory !== 'function') {
      throw new ConfigurationError(
        `algorithm '${algorithm}' of the registry has no createFactory(params, { n, initial }) returning a CS factory`,
      );
    }
    return entry as ClusterAlgorithmModule;
  }
  const specifier = isAbsolute(algorithm) ? pathToFileURL(algorithm).href : algorithm;
  let mod: Record<string, unknown>;
  try {
    mod = (await import(specifier)) as Record<string, unknown>;
  } catch (err) {
    const known = Object.keys(registry);
    throw new ConfigurationError(
      `cannot load algorithm '${algorithm}' (${specifier}): ${(err as Error).message}; ` +
        `use ${known.length ? `a registered name (${known.join(', ')}) or ` : ''}` +
        'a module path or package specifier exporting createFactory(params, { n, initial })',
      { cause: err },
    );
  }
  const candidate = mod as Partial<ClusterAlgorithmModule>;
  if (typeof candidate.createFactory === 'function') return candidate as ClusterAlgorithmModule;
  const fromDefault = mod.default as Partial<ClusterAlgorithmModule> | undefined;
  if (typeof fromDefault?.createFactory === 'function') return fromDefault as ClusterAlgorithmModule;
  throw new ConfigurationError(
    `algorithm module ${specifier} does not export createFactory(params, { n, initial }) returning a CS factory`,
  );
}

/** True for a value shaped like an algorithm descriptor (a name, a parameter schema and `build`). */
function isDescriptor(x: unknown): x is AnyDescriptor {
  const d = x as Partial<AnyDescriptor> | null;
  return (
    typeof d === 'object' &&
    d !== null &&
    typeof d.name === 'string' &&
    typeof d.build === 'function' &&
    typeof d.params === 'object'
  );
}

/**
 * The algorithms to resolve `algorithm` among: `algorithms` when it names one of them, else
 * `algorithms` plus the descriptor exported by the module `algorithm` names (an absolute path or
 * a package specifier; its default export or its only exported descriptor), registered under
 * that path so that a cluster configuration can name it and every member finds it.
 * @throws ConfigurationError when the module cannot be imported or exports no descriptor.
 */
export async function withAlgorithmModule(
  algorithm: string,
  algorithms: readonly AnyDescriptor[] = ALGORITHMS,
): Promise<readonly AnyDescriptor[]> {
  if (algorithms.some((d) => d.name === algorithm)) return algorithms;
  if (!namesAModule(algorithm)) return algorithms;
  const specifier = isAbsolute(algorithm) ? pathToFileURL(algorithm).href : algorithm;
  let mod: Record<string, unknown>;
  try {
    mod = (await import(specifier)) as Record<string, unknown>;
  } catch (err) {
    throw new ConfigurationError(
      `cannot load algorithm '${algorithm}' (${specifier}): ${(err as Error).message}; use one of ${algorithms.map((d) => d.name).join(', ')}, or a module exporting an algorithm descriptor (defineAlgorithm of @critsec/core)`,
      { cause: err },
    );
  }
  const found = isDescriptor(mod.default) ? [mod.default] : Object.values(mod).filter(isDescriptor);
  if (found.length !== 1) {
    throw new ConfigurationError(
      `algorithm module ${specifier} exports ${found.length === 0 ? 'no algorithm descriptor' : `${found.length} descriptors (${found.map((d) => d.name).join(', ')}); make one the default export`} (defineAlgorithm of @critsec/core)`,
    );
  }
  return [...algorithms, { ...found[0]!, name: algorithm }];
}
