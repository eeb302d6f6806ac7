/**
 * The member program of the bench's OS-process clusters (run by `launchCluster({ entry })` as
 * `node --import tsx bench/member.ts --config cluster.json --id 3`): `runClusterNode` of
 * `@critsec/cluster` with the bench algorithm registry and the bench workload; reports to the
 * launcher over IPC like the package's own member program.
 */
import { parseArgs } from 'node:util';
import { runClusterNode } from '@critsec/cluster';
import { BENCH_ALGORITHM, benchAlgorithm } from '../src/algorithm.js';
import { benchWorkload } from '../src/member-workload.js';

function send(message: unknown): Promise<void> {
  return new Promise((resolve) => {
    if (typeof process.send !== 'function' || !process.connected) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

const { values } = parseArgs({ options: { config: { type: 'string' }, id: { type: 'string' } } });
try {
  const report = await runClusterNode({
    configPath: values.config ?? 'cluster.json',
    id: Number(values.id),
    algorithms: { [BENCH_ALGORITHM]: benchAlgorithm },
    workload: benchWorkload,
    logger: null,
  });
  await send({ type: 'report', report });
  if (process.connected) process.disconnect();
} catch (err) {
  process.stderr.write(
    `bench member failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
}
