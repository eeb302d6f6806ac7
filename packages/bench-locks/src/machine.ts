/**
 * What the table is measured on: date, Node, CPUs, `uptime` (load averages) and the busiest
 * other processes — noted before and after a run, since the machine may be shared.
 */
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';

function run(cmd: string, args: readonly string[]): string {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return `(${cmd} unavailable)`;
  }
}

/** The machine line: CPU count and model, Node version. */
export function machineLine(): string {
  const list = cpus();
  return `${list.length} × ${list[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ${process.platform}`;
}

/** `uptime` (its load averages). */
export function uptime(): string {
  return run('uptime', []);
}

/** The `count` processes using the most CPU (ps: %CPU, elapsed time, command, cut to 100 chars). */
export function busiestProcesses(count = 6): string {
  const out = run('ps', ['-eo', 'pcpu,etime,args', '--sort=-pcpu']);
  return out
    .split('\n')
    .filter((l) => !l.includes('ps -eo'))
    .slice(0, count + 1)
    .map((l) => l.slice(0, 100))
    .join('\n');
}

/** The first line of `binary --version`, or `unknown`. */
export function versionOf(binary: string, pattern: RegExp): string {
  return run(binary, ['--version']).match(pattern)?.[1] ?? 'unknown';
}
