/*
 * `critsec node --config cluster.json --id 3`: one member of a real deployment (DESIGN.md 5).
 * The member is `runNode` of @critsec/cluster; this command runs it, prints one line on stderr
 * when it is ready, when a peer goes down or comes back, and at every tenth of its rounds, and
 * formats its report. A configuration error (the file, or a certificate or key it names) is a
 * `DeploymentConfigError` (exit 78); every wait of the member has a deadline, after which it
 * ends with a one-line `TransportError` (exit 1) with its connections closed.
 */
import { parseInteger } from '@critsec/core/kit';
import { ConfigurationError } from '@critsec/core';
import {
  type ClusterNodeProgress,
  loadClusterConfig,
  type MemberMetricsAddress,
  type NodeReport,
  runNode,
} from '@critsec/cluster';
import { asDeploymentConfigError } from './exit-codes.js';
import { fmt } from './summary.js';

/**
 * Reads `--metrics`: `[host:]port` (`9464`, `0.0.0.0:9464`, `[::1]:9464`).
 * @throws ConfigurationError for a port that is not an integer 0–65535 or an empty host.
 */
export function parseMetricsAddress(text: string): MemberMetricsAddress {
  const colon = text.lastIndexOf(':');
  const host = colon < 0 ? undefined : text.slice(0, colon).replace(/^\[(.*)\]$/, '$1');
  const portText = colon < 0 ? text : text.slice(colon + 1);
  const port = Number(portText);
  if (!(/^\d+$/.test(portText) && port <= 65_535) || host === '') {
    throw new ConfigurationError(
      `--metrics must be [host:]port with a port 0–65535 (e.g. 9464 or 0.0.0.0:9464), got ${text}`,
    );
  }
  return host === undefined ? { port } : { port, host };
}

function meanMax(xs: readonly number[]): string {
  if (xs.length === 0) return '—';
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return `${fmt(mean)} / ${fmt(Math.max(...xs))} ms`;
}

/** Where `critsec node` writes its progress lines (default: stderr). */
export interface NodeCommandOutput {
  /** Writes one progress line (given without its newline). */
  write(line: string): unknown;
}

/**
 * The progress lines of member `id` with `rounds` counted rounds among `n` members: ready, each
 * peer down and back, every tenth of its rounds (counted entries), its rounds done — one line
 * each, never one per message.
 */
function progressLines(
  id: number,
  n: number,
  rounds: number,
  out: NodeCommandOutput,
): (p: ClusterNodeProgress) => void {
  const t0 = performance.now();
  const secs = () => `${fmt((performance.now() - t0) / 1000)} s`;
  const step = Math.max(1, Math.ceil(rounds / 10));
  let entries = 0;
  return (p) => {
    switch (p.event) {
      case 'ready':
        out.write(
          `P${id}: connected to its ${n - 1} peer${n === 2 ? '' : 's'} after ${secs()}; running ${rounds} rounds`,
        );
        break;
      case 'peer-down':
        out.write(`P${id}: lost P${p.peer} (${p.detail ?? 'connection closed'}); waiting for it`);
        break;
      case 'peer-up':
        out.write(`P${id}: P${p.peer} is back (${p.detail ?? 'reconnected'})`);
        break;
      case 'entry-done':
        entries++;
        if (entries % step === 0 && entries < rounds)
          out.write(`P${id}: round ${entries}/${rounds} (${secs()})`);
        break;
      case 'rounds-done':
        out.write(`P${id}: finished its ${rounds} rounds after ${secs()}; waiting for the other members`);
        break;
    }
  };
}

/**
 * `critsec node`: runs a member, writes its progress lines to `out` (default stderr), and
 * formats its report.
 * @throws ConfigurationError for an `--id` that is no integer ≥ 0 or a `--metrics` that is no
 *   `[host:]port` (exit 2); a
 *   `DeploymentConfigError` for a configuration that cannot be used or a store refused (missing on
 *   `--recover`, existing without it, another member's; exit 78); the member's
 *   `TransportError` when a deadline expired (exit 1).
 */
export async function runNodeCommand(
  configPath: string,
  idText: string,
  out: NodeCommandOutput = { write: (line) => process.stderr.write(`${line}\n`) },
  options: {
    /** Restart the member from its store (`--recover`). */
    readonly recover?: boolean;
    /** Serve the member's metrics at `[host:]port` (`--metrics`), said on `out` once listening. */
    readonly metrics?: string;
  } = {},
): Promise<
  NodeReport & {
    /** The member reported no error (`errors` is empty). */
    ok: boolean;
    /** The report in words, for the terminal. */
    text: string;
  }
> {
  const id = parseInteger('id', idText, 0);
  const metrics = options.metrics === undefined ? undefined : parseMetricsAddress(options.metrics);
  let report: NodeReport;
  try {
    const { config } = loadClusterConfig(configPath);
    report = await runNode({
      configPath,
      id,
      logger: { warn: (m) => out.write(m) },
      ...(options.recover === true ? { recover: true } : {}),
      ...(metrics === undefined
        ? {}
        : { metrics: { ...metrics, onListening: (url: string) => out.write(`P${id}: metrics at ${url}`) } }),
      onProgress: progressLines(id, config.n, config.workload.rounds, out),
    });
  } catch (err) {
    throw asDeploymentConfigError(err);
  }
  const c = report.cli;
  const text = [
    `P${id}: ${c.entries} entries and ${c.exits} exits in ${fmt(report.durationMs / 1000)} s`,
    `entry waiting time (mean / max): ${meanMax(c.entryWaitsMs)}`,
    `exit waiting time (mean / max): ${meanMax(c.exitWaitsMs)}`,
    `messages sent by this member: ${fmt(c.sent)} (received ${fmt(c.delivered)})`,
    ...(report.errors.length > 0 ? [`errors: ${report.errors.join('; ')}`] : []),
    'the cluster-wide safety check needs every member’s log records in one file (`critsec cluster` does it on one machine)',
  ].join('\n');
  return { ...report, ok: report.errors.length === 0, text };
}
