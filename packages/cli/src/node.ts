/*
 * `critsec node --config cluster.json --id 3`: one member of a real deployment (DESIGN.md 5).
 * The member is `runNode` of @critsec/cluster; this command runs it and formats its report.
 */
import { parseInteger, runNode, type NodeReport } from '@critsec/cluster';
import { fmt } from './summary.js';

function meanMax(xs: readonly number[]): string {
  if (xs.length === 0) return '—';
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return `${fmt(mean)} / ${fmt(Math.max(...xs))} ms`;
}

/** `critsec node`: runs a member and formats its report. */
export async function runNodeCommand(
  configPath: string,
  idText: string,
): Promise<NodeReport & { ok: boolean; text: string }> {
  const id = parseInteger('id', idText, 0);
  const report = await runNode({ configPath, id, logger: { warn: (m) => process.stderr.write(`${m}\n`) } });
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
