/**
 * Added delay for the hosts of `netns.ts` (this kernel has no `tc netem`): every TCP connection
 * to or from one host on a port runs through a small proxy (`test/fixtures/delay-proxy.ts`) that
 * hands each chunk on `ms` later, in each direction. A proxy in every host's namespace listens on
 * `port + 1` of the host's address; iptables DNAT in PREROUTING sends it what arrives for `port`
 * — in the delayed host, from anyone; in the others, from the delayed host — so each link of the
 * delayed host crosses one proxy. Connections made before stay direct (conntrack keeps their
 * translation), so the delayed host's connections on `port` are then destroyed (`ss -K`) and its
 * links come back, through the proxies, by reconnection. `undo()` removes the rules, kills the
 * proxies (whose connections die with them) and the links reconnect direct.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** What the delay needs of the hosts. */
export interface DelayHosts {
  readonly n: number;
  address(id: number): string;
  namespace(id: number): string;
}

/** A delay in place. */
export interface Delay {
  /** Connections the proxies have relayed so far. */
  connections(): number;
  /** Removes it (idempotent). */
  undo(): void;
}

const proxyScript = fileURLToPath(new URL('../fixtures/delay-proxy.ts', import.meta.url));
const tsx = new URL(`file://${createRequire(import.meta.url).resolve('tsx')}`).href;

function inNs(ns: string, ...args: string[]): void {
  execFileSync('ip', ['netns', 'exec', ns, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Starts one proxy in `ns`; resolves once it listens (or rejects when it ends first); `onConnection` per connection relayed. */
function startProxy(
  ns: string,
  address: string,
  port: number,
  ms: number,
  onConnection: () => void,
): Promise<ChildProcess> {
  const child = spawn(
    'ip',
    [
      'netns',
      'exec',
      ns,
      process.execPath,
      '--import',
      tsx,
      proxyScript,
      address,
      String(port + 1),
      address,
      String(port),
      String(ms),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      const text = d.toString();
      if (text.includes('listening')) resolve(child);
      for (const _ of text.matchAll(/connection/g)) onConnection();
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`delay proxy in ${ns} ended (${signal ?? code}) before listening`)),
    );
  });
}

/** Destroys the connections of host `ns` on `port`, either end. */
function dropConnections(ns: string, port: number): void {
  for (const end of ['sport', 'dport']) inNs(ns, 'ss', '-K', end, '=', `:${port}`);
}

/**
 * Adds `ms` of delay each way to every connection of host `id` on `port` (see the module comment).
 * `track` is handed every proxy process (for the hosts' teardown).
 * @throws Error when a proxy does not start or a rule cannot be added (after undoing what was done).
 */
export async function delayHost(
  hosts: DelayHosts,
  id: number,
  ms: number,
  port: number,
  track: (child: ChildProcess) => void,
): Promise<Delay> {
  const proxies: ChildProcess[] = [];
  const rules: string[] = [];
  let connections = 0;
  let undone = false;
  const undo = () => {
    if (undone) return;
    undone = true;
    for (const ns of rules) inNs(ns, 'iptables', '-w', '-t', 'nat', '-F');
    for (const p of proxies) p.kill('SIGKILL');
  };
  try {
    for (let h = 0; h < hosts.n; h++) {
      const child = await startProxy(hosts.namespace(h), hosts.address(h), port, ms, () => connections++);
      proxies.push(child);
      track(child);
      const from = h === id ? [] : ['-s', hosts.address(id)];
      const to = `${hosts.address(h)}:${port + 1}`;
      rules.push(hosts.namespace(h));
      inNs(
        hosts.namespace(h),
        'iptables',
        '-w',
        '-t',
        'nat',
        '-A',
        'PREROUTING',
        '-p',
        'tcp',
        ...from,
        '-d',
        hosts.address(h),
        '--dport',
        String(port),
        '-j',
        'DNAT',
        '--to-destination',
        to,
      );
    }
    dropConnections(hosts.namespace(id), port);
  } catch (err) {
    undo();
    throw err;
  }
  return { connections: () => connections, undo };
}
