/**
 * Process entry of a cluster member: `node cluster-node.js --config cluster.json --id 3`.
 * Runs {@link runClusterNode} (no registry: the configuration's `algorithm` is a module path or
 * package specifier); sends progress and the final report to the launcher over IPC
 * when spawned by it, and prints the report as one JSON line prefixed `CRITSEC-REPORT ` on
 * stdout either way. Exit code 0 on success, 1 on failure (the error on stderr).
 */
import { parseArgs } from 'node:util';
import { runClusterNode } from './cluster-node.js';

/** Prefix of the report line on stdout. */
export const REPORT_PREFIX = 'CRITSEC-REPORT ';

function send(message: unknown): Promise<void> {
  return new Promise((resolve) => {
    if (typeof process.send !== 'function' || !process.connected) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { config: { type: 'string' }, id: { type: 'string' } },
    strict: true,
  });
  const id = Number(values.id);
  if (values.config === undefined || !Number.isSafeInteger(id) || id < 0) {
    throw new Error('usage: cluster-node --config <cluster.json> --id <process id ≥ 0>');
  }
  const report = await runClusterNode({
    configPath: values.config,
    id,
    onProgress: (p) => void send({ type: 'progress', progress: p }),
  });
  await send({ type: 'report', report });
  process.stdout.write(`${REPORT_PREFIX}${JSON.stringify(report)}\n`);
}

main().then(
  () => {
    process.exitCode = 0;
    if (process.connected) process.disconnect();
  },
  (err: unknown) => {
    process.stderr.write(
      `critsec cluster node failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(1);
  },
);
