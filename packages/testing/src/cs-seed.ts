/**
 * One seeded run of the CS compliance suite, replayed with a trace when it fails: the unit every
 * seeded concern (safety, liveness, abort) is made of, and what a package calls to replay a seed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeSpec } from '@critsec/core/kit';
import { type DelayModel, formatDelay } from '@critsec/transport-sim';
import { createCluster } from '@critsec/harness';
import { type CSComplianceSetup, clusterOptions, workloadOptions } from './cs-setup.js';
import { runWorkload, type WorkloadOptions, type WorkloadResult, WorkloadFailure } from '@critsec/harness';

function slug(s: string): string {
  return s.replace(/[^a-zA-Z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
}

/**
 * Runs one seed; on failure re-runs it with a trace, writes the trace to the trace directory and
 * throws a {@link WorkloadFailure} naming the seed, the delay model and the trace path (or, when
 * the run was safe and live but an object reported an error event, an `Error` naming the first).
 */
export async function runSeed<Req>(
  setup: CSComplianceSetup<Req>,
  seed: number,
  delay: DelayModel,
  extra: Partial<WorkloadOptions<Req>> = {},
): Promise<WorkloadResult> {
  const cluster = createCluster(clusterOptions(setup, seed, delay));
  const result = await runWorkload(cluster, workloadOptions(setup, extra));
  const dropped = cluster.errors.length;
  if (result.ok && dropped === 0) return result;
  const replay = createCluster({ ...clusterOptions(setup, seed, delay), trace: true });
  await runWorkload(replay, workloadOptions(setup, extra));
  const dir = setup.traceDir ?? join(process.cwd(), '.traces');
  const file = join(dir, `${slug(setup.name)}-${slug(formatDelay(delay))}-seed${seed}.jsonl`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, `${replay.net.trace.join('\n')}\n`);
  } catch {
    /* the failure below is what matters */
  }
  const label = `${setup.name} [${describeSpec(setup.spec)}, delay ${formatDelay(delay)}]`;
  if (!result.ok) {
    const err = new WorkloadFailure(label, result);
    err.message += ` — trace: ${file}`;
    throw err;
  }
  throw new Error(
    `${label}: seed ${seed}: ${dropped} error event(s), first: ${cluster.errors[0]!.error.message} — trace: ${file}`,
  );
}
