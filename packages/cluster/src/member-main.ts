/*
 * The one process main of a cluster member, which the launcher spawns as
 * `node member-main.js --config cluster.json --id 3 [--member critsec] [--recover]` (`--recover`: a
 * durable member restarted from its store, see `RunClusterNodeOptions.recover`):
 *
 * - `--member modules` (the default, `launchCluster`'s): {@link runClusterNode} with no registry —
 *   the configuration's `algorithm` is a module path or package specifier exporting
 *   `createFactory`, its `workload.module` (or `roundsWorkload`) drives the calls;
 * - `--member critsec` (`critsec cluster`'s, `runLocalCluster`): {@link runNode} — the algorithm
 *   by descriptor name and `critsec`'s member workload, with its measurements in the report.
 *
 * Either way it relays progress and the final report to the launcher over IPC (when spawned by
 * it), prints the report as one JSON line prefixed {@link REPORT_PREFIX} on stdout, and exits 0 —
 * or, with one line on stderr, 78 (EX_CONFIG) for a configuration error or a refused store
 * (`StoreError` `missing`, `exists`, `foreign`) and 1 for any other.
 */
import { parseArgs } from 'node:util';
import { CritsecError } from '@critsec/core';
import { StoreError } from '@critsec/store';
import { parseChoice, parseInteger } from '@critsec/core/kit';
import { runNode } from './member-critsec.js';
import { runClusterNode } from './member-runtime.js';

/** Prefix of the report line on stdout. */
const REPORT_PREFIX = 'CRITSEC-REPORT ';

function send(message: unknown): Promise<void> {
  return new Promise((resolve) => {
    if (typeof process.send !== 'function' || !process.connected) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

async function run(): Promise<void> {
  const { values } = parseArgs({
    options: {
      config: { type: 'string' },
      id: { type: 'string' },
      member: { type: 'string' },
      recover: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.config === undefined) {
    throw new Error(
      'usage: member-main --config <cluster.json> --id <id> [--member modules|critsec] [--recover]',
    );
  }
  const member = parseChoice('member', values.member ?? 'modules', ['modules', 'critsec'] as const);
  const options = {
    configPath: values.config,
    id: parseInteger('id', values.id ?? '', 0),
    onProgress: (progress: unknown) => void send({ type: 'progress', progress }),
    ...(values.recover === true ? { recover: true } : {}),
  };
  const report =
    member === 'critsec'
      ? await runNode({ ...options, logger: { warn: (m) => process.stderr.write(`${m}\n`) } })
      : await runClusterNode(options);
  await send({ type: 'report', report });
  process.stdout.write(`${REPORT_PREFIX}${JSON.stringify(report)}\n`);
}

run().then(
  () => {
    process.exitCode = 0;
    if (process.connected) process.disconnect();
  },
  (err: unknown) => {
    const e = err instanceof Error ? err : new Error(String(err));
    // a store refused (missing, exists, foreign) is a configuration problem too: the message names the way out
    const configuration =
      err instanceof CritsecError &&
      (err.code === 'CONFIGURATION' ||
        (err instanceof StoreError && ['missing', 'exists', 'foreign'].includes(err.reason)));
    // a CritsecError is one line for the operator; anything else is a bug: its stack
    const text = err instanceof CritsecError ? e.message.replace(/\s*\n\s*/g, ' ') : (e.stack ?? e.message);
    process.stderr.write(`critsec member: ${text}\n`);
    process.exit(configuration ? 78 : 1);
  },
);
