/**
 * The deployment recipes of `deploy/` (issue 30) as the CLI sees them: the systemd unit's
 * ExecStart and the Kubernetes container's arguments pass `critsec`'s option parser (run in this
 * process with the configuration path swapped for a missing file: exit 78, the configuration
 * could not be read, where a refused option is exit 2), and both stop timeouts exceed the
 * graceful shutdown's bound. The schemas and cross-references of the recipes:
 * `packages/integration-tests/test/deploy-recipes.test.ts`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHUTDOWN_BOUND_MS } from '@critsec/service';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { main } from '../src/index.js';

const deploy = fileURLToPath(new URL('../../../deploy', import.meta.url));
const missing = join(deploy, 'no-such-dir', 'cluster.json');

/** Runs `critsec argv` in this process: its exit code and stderr. */
async function critsec(argv: readonly string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const io = {
    stdout: { write: () => true },
    stderr: {
      write: (s: string) => {
        stderr += s;
        return true;
      },
    },
  };
  return { code: await main(argv, io as unknown as Parameters<typeof main>[1]), stderr };
}

/** `argv` with the value of `--config` replaced by a file that does not exist. */
const withMissingConfig = (argv: readonly string[]) =>
  argv.map((a, i) => (argv[i - 1] === '--config' ? missing : a));

describe('deploy/: the recipes’ command lines pass the CLI’s parser', () => {
  it('systemd: ExecStart of critsec@0 (its default address), and TimeoutStopSec above the shutdown bound', async () => {
    const unit = readFileSync(join(deploy, 'systemd', 'critsec@.service'), 'utf8');
    const value = (key: string) => new RegExp(`^${key}=(.*)$`, 'm').exec(unit)?.[1];
    const serve = /^CRITSEC_SERVE=(\S+)$/.exec(value('Environment') ?? '')?.[1];
    expect(serve).toBe('127.0.0.1:7070');
    const [program, ...argv] = value('ExecStart')!
      .replaceAll('%i', '0')
      .replace(/\$\{CRITSEC_SERVE\}/, serve!)
      .split(/\s+/);
    expect(program).toBe('/usr/local/bin/critsec');
    expect(argv.slice(0, 1)).toEqual(['node']);
    const r = await critsec(withMissingConfig(argv));
    expect(r.code, r.stderr).toBe(78);
    expect(r.stderr).toContain(missing);
    expect((await critsec([...argv, '--no-such-option'])).code).toBe(2);
    expect(Number(/^(\d+)s$/.exec(value('TimeoutStopSec') ?? '')?.[1]) * 1000).toBeGreaterThan(
      SHUTDOWN_BOUND_MS,
    );
  });

  it('Kubernetes: the container’s args for pod critsec-3, and terminationGracePeriodSeconds above the bound', async () => {
    const docs = parseAllDocuments(readFileSync(join(deploy, 'kubernetes', 'critsec.yaml'), 'utf8')).map(
      (d) => d.toJS() as { kind?: string; spec?: unknown } | null,
    );
    const sts = docs.find((d) => d?.kind === 'StatefulSet')!.spec as {
      template: { spec: { terminationGracePeriodSeconds: number; containers: { args: string[] }[] } };
    };
    const pod = sts.template.spec;
    // Kubernetes expands $(CRITSEC_ID): the pod-index label of critsec-3 is "3"
    const argv = pod.containers[0]!.args.map((a) => a.replace('$(CRITSEC_ID)', '3'));
    expect(argv[argv.indexOf('--id') + 1]).toBe('3');
    const r = await critsec(withMissingConfig(argv));
    expect(r.code, r.stderr).toBe(78);
    expect(r.stderr).toContain(missing);
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(SHUTDOWN_BOUND_MS);
  });
});
