/*
 * A command's options as a `ClusterInput` (the cluster description `resolveCluster` of
 * @critsec/cluster validates; the value parsers are that package's `parseInteger`,
 * `parseChoice`, …).
 */

/**
 * The cluster description of a command's options: `--algorithm` is local-cs's (the positional
 * argument names the algorithm), `--bounds` a file; `--n` defaults per command except for
 * local-cs, whose graph says n.
 */
export function clusterInput(
  algorithm: string,
  o: Record<string, string | boolean | undefined>,
  defaultN: string,
): Record<string, string> & { algorithm: string } {
  const { algorithm: localAlgorithm, bounds, ...rest } = o as Record<string, string | undefined>;
  const input: Record<string, string> = {};
  for (const [key, value] of Object.entries(rest)) if (typeof value === 'string') input[key] = value;
  if (localAlgorithm !== undefined) input.localAlgorithm = localAlgorithm;
  if (bounds !== undefined) input.boundsFile = bounds;
  if (input.n === undefined && algorithm !== 'local-cs') input.n = defaultN;
  return { ...input, algorithm };
}
