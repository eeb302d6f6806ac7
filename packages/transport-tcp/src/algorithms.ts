/**
 * How a cluster process finds its algorithm: by name in {@link builtinClusterAlgorithms}, or by
 * a module path / package specifier. The module exports `createFactory(params, cluster)`
 * returning the {@link CSFactory} to run — the plug-in point for every CS object, including
 * users' own.
 */
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigurationError, type CSFactory, type CSState } from '@critsec/core';

/** What a cluster algorithm module exports. */
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

/** Where a named algorithm lives: a module specifier (and the export holding the module object, if not the module itself). */
export interface ClusterAlgorithmEntry {
  readonly module: string;
  readonly export?: string;
}

/**
 * Algorithms runnable by name in a cluster configuration. Algorithm packages add their entries
 * here as they land (e.g. `maekawa` from `@critsec/mutex`, `gcs` from `@critsec/gcs`); until then
 * a configuration names a module path.
 */
export const builtinClusterAlgorithms: Readonly<Record<string, ClusterAlgorithmEntry>> = Object.freeze({});

/**
 * Loads the algorithm module named by `algorithm`: a built-in name, an absolute path, or a
 * package specifier (relative paths must be resolved by the caller first).
 * @throws ConfigurationError when it cannot be imported or has no `createFactory`.
 */
export async function loadClusterAlgorithm(
  algorithm: string,
  registry: Readonly<Record<string, ClusterAlgorithmEntry>> = builtinClusterAlgorithms,
): Promise<ClusterAlgorithmModule> {
  const entry = Object.hasOwn(registry, algorithm) ? registry[algorithm]! : { module: algorithm };
  const specifier = isAbsolute(entry.module) ? pathToFileURL(entry.module).href : entry.module;
  let mod: Record<string, unknown>;
  try {
    mod = (await import(specifier)) as Record<string, unknown>;
  } catch (err) {
    const known = Object.keys(registry);
    throw new ConfigurationError(
      `cannot load algorithm '${algorithm}' (${specifier}): ${(err as Error).message}; ` +
        `use a built-in name${known.length ? ` (${known.join(', ')})` : ' (none yet)'} or a module path exporting createFactory`,
      { cause: err },
    );
  }
  const candidate = (entry.export === undefined ? mod : mod[entry.export]) as
    | Partial<ClusterAlgorithmModule>
    | undefined;
  const fromDefault = (mod.default as Partial<ClusterAlgorithmModule> | undefined)?.createFactory;
  if (typeof candidate?.createFactory === 'function') return candidate as ClusterAlgorithmModule;
  if (entry.export === undefined && typeof fromDefault === 'function')
    return mod.default as ClusterAlgorithmModule;
  throw new ConfigurationError(
    `algorithm module ${specifier} does not export createFactory(params, { n, initial }) returning a CS factory`,
  );
}
