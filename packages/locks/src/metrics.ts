/**
 * The lock manager's metrics, through prom-client (the maintained Prometheus client for Node).
 * Every series carries the `member` label, so managers of several members may share a registry
 * (a test's, or one process hosting several members); a metric already in the registry is
 * reused, not registered twice.
 */
import type { ProcessId, Suspicions } from '@critsec/core';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** Waiting-time buckets (ms): from a loopback round trip to half a minute. */
const WAIT_BUCKETS_MS = [0.5, 1, 2, 5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000];

/** The managers sharing a messages counter: each adds what it counted when the counter is collected. */
const flushes = new WeakMap<object, (() => void)[]>();

/** The metric `name` of `registry`, made by `make` unless the registry has it already. */
function metric<T>(registry: Registry, name: string, make: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? make();
}

function counter<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: L[],
): Counter<L> {
  return metric(registry, name, () => new Counter({ name, help, labelNames, registers: [registry] }));
}

function gauge<L extends string>(registry: Registry, name: string, help: string, labelNames: L[]): Gauge<L> {
  return metric(registry, name, () => new Gauge({ name, help, labelNames, registers: [registry] }));
}

/** The messages counter: each manager sharing it adds what it counted when it is collected. */
function messagesCounter(registry: Registry): Counter<'member' | 'type'> {
  const name = 'critsec_lock_messages_sent_total';
  return metric(
    registry,
    name,
    () =>
      new Counter({
        name,
        help: 'Protocol messages sent by this member, by type (REQUEST, LOCKED, request, OK, …)',
        labelNames: ['member', 'type'],
        registers: [registry],
        collect() {
          for (const flush of flushes.get(this) ?? []) flush();
        },
      }),
  );
}

/** The series of one manager (see the README's "Metrics" table). */
export class LockMetrics {
  readonly #member: string;
  readonly #acquisitions: Counter<'member' | 'mode'>;
  readonly #unavailable: Counter<'member' | 'mode'>;
  readonly #timeouts: Counter<'member' | 'mode'>;
  readonly #wait: Histogram<'member' | 'mode'>;
  readonly #holders: Gauge<'member' | 'name'>;
  /** Messages sent by type since the last scrape (added to the counter when it is collected: one Map update per message). */
  readonly #sentSince = new Map<string, number>();
  readonly #messages: Counter<'member' | 'type'>;
  readonly #flush: () => void;
  readonly #instances: Gauge<'member'>;
  readonly #reclaimed: Counter<'member'>;
  readonly #expired: Counter<'member' | 'mode'>;
  readonly #peersUp: Gauge<'member'>;
  readonly #peerUp: Gauge<'member' | 'peer'>;
  #offPeers: () => void = () => {};

  constructor(registry: Registry, member: number) {
    this.#member = String(member);
    const byMode: ('member' | 'mode')[] = ['member', 'mode'];
    this.#acquisitions = counter(
      registry,
      'critsec_lock_acquisitions_total',
      'Locks granted to this member',
      byMode,
    );
    this.#unavailable = counter(
      registry,
      'critsec_lock_unavailable_total',
      'ifAvailable requests answered with null',
      byMode,
    );
    this.#timeouts = counter(
      registry,
      'critsec_lock_timeouts_total',
      'Requests withdrawn because their timeout passed',
      byMode,
    );
    const waitName = 'critsec_lock_wait_ms';
    this.#wait = metric(
      registry,
      waitName,
      () =>
        new Histogram({
          name: waitName,
          help: 'Waiting time from request to grant (the manager clock: ms for the default monotonic clock)',
          labelNames: byMode,
          buckets: WAIT_BUCKETS_MS,
          registers: [registry],
        }),
    );
    this.#holders = gauge(
      registry,
      'critsec_lock_holders',
      'Holders of the lock at this member (0 or 1; the series goes when the name is reclaimed)',
      ['member', 'name'],
    );
    this.#instances = gauge(registry, 'critsec_lock_instances', 'Protocol instances live at this member', [
      'member',
    ]);
    this.#reclaimed = counter(registry, 'critsec_lock_reclaimed_total', 'Idle protocol instances reclaimed', [
      'member',
    ]);
    this.#expired = counter(
      registry,
      'critsec_lock_expired_grants_total',
      'Grants whose tenure expired (its signal fired: a ttl passed without renewal) before the holder released them',
      byMode,
    );
    this.#peersUp = gauge(
      registry,
      'critsec_peers_up',
      "Peers this member's failure detector does not suspect (n − 1 when every one is up)",
      ['member'],
    );
    this.#peerUp = gauge(
      registry,
      'critsec_peer_up',
      "1 while this member's failure detector trusts the peer, 0 while it suspects it (down, silent, or gone)",
      ['member', 'peer'],
    );
    const messages = messagesCounter(registry);
    this.#messages = messages;
    this.#flush = () => {
      for (const [type, count] of this.#sentSince) messages.inc({ member: this.#member, type }, count);
      this.#sentSince.clear();
    };
    const list = flushes.get(messages) ?? [];
    list.push(this.#flush);
    flushes.set(messages, list);
  }

  acquired(mode: string, name: string, waited: number): void {
    this.#acquisitions.inc({ member: this.#member, mode });
    this.#wait.observe({ member: this.#member, mode }, waited);
    this.#holders.set({ member: this.#member, name }, 1);
  }

  released(name: string): void {
    this.#holders.set({ member: this.#member, name }, 0);
  }

  unavailable(mode: string): void {
    this.#unavailable.inc({ member: this.#member, mode });
  }

  timedOut(mode: string): void {
    this.#timeouts.inc({ member: this.#member, mode });
  }

  sent(type: string): void {
    this.#sentSince.set(type, (this.#sentSince.get(type) ?? 0) + 1);
  }

  /**
   * Follows the member's failure detector (`RootEndpoint.suspicions`) into the peers gauges:
   * every peer of `n` but this member, up unless suspected; updated on each change.
   */
  peers(n: number, self: ProcessId, suspicions: Suspicions): void {
    const update = () => {
      const suspected = suspicions.suspected();
      let up = 0;
      for (let peer = 0; peer < n; peer++) {
        if (peer === self) continue;
        const trusted = !suspected.has(peer);
        if (trusted) up++;
        this.#peerUp.set({ member: this.#member, peer: String(peer) }, trusted ? 1 : 0);
      }
      this.#peersUp.set({ member: this.#member }, up);
    };
    update();
    this.#offPeers = suspicions.onChange(update);
  }

  /** A holder's grant expired (its tenure's signal fired) before it released the lock. */
  expired(mode: string): void {
    this.#expired.inc({ member: this.#member, mode });
  }

  /** Counts what is left and stops taking part in the messages counter's collection (the manager closed). */
  close(): void {
    this.#offPeers();
    this.#flush();
    const list = flushes.get(this.#messages) ?? [];
    const i = list.indexOf(this.#flush);
    if (i >= 0) list.splice(i, 1);
  }

  instances(live: number): void {
    this.#instances.set({ member: this.#member }, live);
  }

  reclaimed(names: readonly string[]): void {
    this.#reclaimed.inc({ member: this.#member }, names.length);
    for (const name of names) this.#holders.remove({ member: this.#member, name });
  }
}
