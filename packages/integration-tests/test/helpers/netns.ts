/**
 * Hosts in Linux network namespaces, one per member, for tests of what crosses a real network
 * (issue 28): a bridge in a namespace of its own, one veth pair per member from it to the
 * member's namespace (`eth0`, address `10.77.0.(10 + id)/24`), and faults made with iptables
 * inside the members' namespaces — a partition drops every packet both ways between two sets of
 * members, a loss drops a random fraction of a member's incoming packets (this kernel has no
 * `tc netem`); a delay runs a member's connections through proxies (`netns-delay.ts`). Root
 * only; {@link netnsSupport} says why not elsewhere.
 *
 * Teardown kills the delay proxies and removes the namespaces (their veth pairs and iptables
 * rules go with them). It runs
 * from `close()`, from the process's `exit` event (synchronously) if the test never got there,
 * and namespaces left by a process that died without either are removed by the next
 * {@link createNetnsHosts} (their names carry the pid of the process that made them).
 */
import { type ChildProcess, execFileSync } from 'node:child_process';
import { type Delay, delayHost } from './netns-delay.js';

/** The prefix of every namespace these helpers make: `critsec-<pid>-br`, `critsec-<pid>-m<id>`. */
const PREFIX = 'critsec-';

function ip(...args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function iptables(ns: string, ...args: string[]): void {
  execFileSync('ip', ['netns', 'exec', ns, 'iptables', '-w', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Whether this process may make network namespaces and iptables rules, and why not. */
export function netnsSupport(): { readonly ok: true } | { readonly ok: false; readonly reason: string } {
  if (process.platform !== 'linux')
    return { ok: false, reason: `network namespaces need Linux, this is ${process.platform}` };
  if (process.getuid?.() !== 0) return { ok: false, reason: 'network namespaces need root (uid 0)' };
  const probe = `${PREFIX}${process.pid}-probe`;
  try {
    ip('netns', 'add', probe);
  } catch (err) {
    return { ok: false, reason: `ip netns add is not permitted here: ${firstLine(err)}` };
  }
  try {
    iptables(probe, '-L', '-n');
    return { ok: true };
  } catch (err) {
    return {
      ok: false,
      reason: `iptables does not run in a namespace here (install Debian's iptables): ${firstLine(err)}`,
    };
  } finally {
    try {
      ip('netns', 'del', probe);
    } catch {
      // already gone
    }
  }
}

function firstLine(err: unknown): string {
  const e = err as { stderr?: Buffer | string; message?: string };
  const text = (e.stderr?.toString() || e.message || String(err)).trim();
  return text.split('\n')[0] ?? text;
}

/** Namespaces of this prefix whose maker process is gone (a run killed before its teardown). */
function sweepStale(): void {
  let list: string;
  try {
    list = ip('netns', 'list');
  } catch {
    return;
  }
  for (const line of list.split('\n')) {
    const name = line.split(' ')[0] ?? '';
    const m = /^critsec-(\d+)-/.exec(name);
    if (m === null) continue;
    const pid = Number(m[1]);
    if (pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch {
      try {
        ip('netns', 'del', name);
      } catch {
        // another sweeper got it first
      }
    }
  }
}

/** Hosts in namespaces (see the module comment). */
export interface NetnsHosts {
  /** Number of hosts. */
  readonly n: number;
  /** Host `id`'s IPv4 address. */
  address(id: number): string;
  /** Host `id`'s namespace name. */
  namespace(id: number): string;
  /** The command that runs a program in host `id`'s namespace (it execs, so a signal reaches the program). */
  runUnder(id: number): readonly string[];
  /** Drops every packet both ways between each host of `a` and each host of `b` (one DROP rule per direction, in each host of `a` and of `b`). */
  partition(a: readonly number[], b: readonly number[]): void;
  /** Drops a random `fraction` of the packets host `id` receives (iptables' statistic match). */
  loss(id: number, fraction: number): void;
  /** Adds `ms` of delay each way to every connection of host `id` on `port` (`netns-delay.ts`); {@link heal} removes it. */
  delay(id: number, ms: number, port: number): Promise<Pick<Delay, 'connections'>>;
  /** Removes every rule {@link partition}, {@link loss} and {@link delay} made, and the delay proxies. */
  heal(): void;
  /** Tears everything down (idempotent). Kill the programs running in the namespaces first. */
  close(): void;
}

/** The bridge namespace and one namespace per host, veth pairs between them, addresses up; each name pushed to `made` as it exists. */
function makeNamespaces(n: number, names: Names, made: string[]): void {
  const { bridge, ns, address } = names;
  ip('netns', 'add', bridge);
  made.push(bridge);
  ip('-n', bridge, 'link', 'add', 'br0', 'type', 'bridge');
  ip('-n', bridge, 'link', 'set', 'br0', 'up');
  for (let id = 0; id < n; id++) {
    ip('netns', 'add', ns(id));
    made.push(ns(id));
    ip('-n', bridge, 'link', 'add', `v${id}`, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns(id));
    ip('-n', bridge, 'link', 'set', `v${id}`, 'master', 'br0', 'up');
    ip('-n', ns(id), 'addr', 'add', `${address(id)}/24`, 'dev', 'eth0');
    ip('-n', ns(id), 'link', 'set', 'eth0', 'up');
    ip('-n', ns(id), 'link', 'set', 'lo', 'up');
  }
}

/** The names and addresses of one set of hosts. */
interface Names {
  readonly bridge: string;
  ns(id: number): string;
  address(id: number): string;
}

/** The iptables faults of {@link NetnsHosts} over `names`. */
function faults(names: Names): Pick<NetnsHosts, 'partition' | 'loss' | 'heal'> {
  const { ns, address } = names;
  const rules = new Set<number>();
  return {
    partition(a, b) {
      for (const x of a) {
        for (const y of b) {
          for (const [here, there] of [
            [x, y],
            [y, x],
          ] as const) {
            iptables(ns(here), '-A', 'INPUT', '-s', address(there), '-j', 'DROP');
            iptables(ns(here), '-A', 'OUTPUT', '-d', address(there), '-j', 'DROP');
            rules.add(here);
          }
        }
      }
    },
    loss(id, fraction) {
      if (!(fraction > 0 && fraction <= 1))
        throw new RangeError(`loss: fraction must be in (0, 1], got ${fraction}`);
      iptables(
        ns(id),
        '-A',
        'INPUT',
        '-m',
        'statistic',
        '--mode',
        'random',
        '--probability',
        String(fraction),
        '-j',
        'DROP',
      );
      rules.add(id);
    },
    heal() {
      for (const id of rules) iptables(ns(id), '-F');
      rules.clear();
    },
  };
}

/**
 * Makes `n` hosts (see the module comment).
 * @throws Error from `ip` when a namespace or link cannot be made (after removing what was made).
 */
export function createNetnsHosts(n: number): NetnsHosts {
  sweepStale();
  const names: Names = {
    bridge: `${PREFIX}${process.pid}-br`,
    ns: (id) => `${PREFIX}${process.pid}-m${id}`,
    address: (id) => `10.77.0.${10 + id}`,
  };
  const made: string[] = [];
  const proxies = new Set<ChildProcess>();
  const delays: Delay[] = [];
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    process.off('exit', close);
    for (const p of proxies) p.kill('SIGKILL');
    for (const name of made.reverse()) {
      try {
        ip('netns', 'del', name);
      } catch {
        // already gone
      }
    }
  };
  process.on('exit', close);
  try {
    makeNamespaces(n, names, made);
  } catch (err) {
    close();
    throw err;
  }
  const f = faults(names);
  const view = { n, address: names.address, namespace: names.ns };
  return {
    ...view,
    runUnder: (id) => ['ip', 'netns', 'exec', names.ns(id)],
    partition: f.partition,
    loss: f.loss,
    async delay(id, ms, port) {
      const d = await delayHost(view, id, ms, port, (p) => proxies.add(p));
      delays.push(d);
      return d;
    },
    heal() {
      f.heal();
      for (const d of delays.splice(0)) d.undo();
    },
    close,
  };
}
