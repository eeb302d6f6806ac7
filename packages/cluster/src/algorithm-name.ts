/**
 * How a cluster configuration's `algorithm` is read: a descriptor by name, or a module to import
 * (see `withAlgorithmModule` and `loadClusterAlgorithm`).
 */
import { isAbsolute } from 'node:path';

/**
 * True when `algorithm` names a module — an absolute or relative path, a scoped package, or a
 * `.js` file — rather than a descriptor by name.
 */
export function namesAModule(algorithm: string): boolean {
  return isAbsolute(algorithm) || /^[.@]|[/\\]|\.[cm]?js$/.test(algorithm);
}
