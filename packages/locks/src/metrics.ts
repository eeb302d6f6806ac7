/**
 * The lock manager's metrics, through prom-client (the maintained Prometheus client for Node).
 * Every series carries the `member` label, so managers of several members may share a registry
 * (a test's, or one process hosting several members); a metric already in the registry is
 * reused, not registered twice.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** Waiting-time buckets (ms): from a loopback round trip to half a minute. */
const WAIT_BUCKETS_MS = [0.5, 1, 2, 5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000];

function metric<T>(registry: Registry, name: string, make: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? make();
}

/** The series of one manager (see the README's "Metrics" table). */
export class LockMetrics {
  readonly #member: string;
  readonly #acquisitions: Counter<'member' | 'mode'>;
  readonly #unavailable: Counter<'member' | 'mode'>;
  readonly #timeouts: Counter<'member' | 'mode'>;
  readonly #wait: Histogram<'member' | 'mode'>;
  readonly #holders: Gauge<'member' | 'name'>;
  readonly #messages: Counter<'member' | 'type'>;
  readonly #instances: Gauge<'member'>;
  readonly #reclaimed: Counter<'member'>;

  constructor(registry: Registry, member: number) {
    this.#member = String(member);
    const registers = [registry];
    this.#acquisitions = metric(
      registry,
      'critsec_lock_acquisitions_total',
      () =>
        new Counter({
          name: 'critsec_lock_acquisitions_total',
          help: 'Locks granted to this member',
          labelNames: ['member', 'mode'],
          registers,
        }),
    );
    this.#unavailable = metric(
      registry,
      'critsec_lock_unavailable_total',
      () =>
        new Counter({
          name: 'critsec_lock_unavailable_total',
          help: 'ifAvailable requests answered with null',
          labelNames: ['member', 'mode'],
          registers,
        }),
    );
    this.#timeouts = metric(
      registry,
      'critsec_lock_timeouts_total',
      () =>
        new Counter({
          name: 'critsec_lock_timeouts_total',
          help: 'Requests withdrawn because their timeout passed',
          labelNames: ['member', 'mode'],
          registers,
        }),
    );
    this.#wait = metric(
      registry,
      'critsec_lock_wait_ms',
      () =>
        new Histogram({
          name: 'critsec_lock_wait_ms',
          help: 'Waiting time from request to grant (the manager clock: ms for the wall clock)',
          labelNames: ['member', 'mode'],
          buckets: WAIT_BUCKETS_MS,
          registers,
        }),
    );
    this.#holders = metric(
      registry,
      'critsec_lock_holders',
      () =>
        new Gauge({
          name: 'critsec_lock_holders',
          help: 'Holders of the lock at this member (0 or 1; the series goes when the name is reclaimed)',
          labelNames: ['member', 'name'],
          registers,
        }),
    );
    this.#messages = metric(
      registry,
      'critsec_lock_messages_sent_total',
      () =>
        new Counter({
          name: 'critsec_lock_messages_sent_total',
          help: 'Protocol messages sent by this member, by type (REQUEST, LOCKED, request, OK, …)',
          labelNames: ['member', 'type'],
          registers,
        }),
    );
    this.#instances = metric(
      registry,
      'critsec_lock_instances',
      () =>
        new Gauge({
          name: 'critsec_lock_instances',
          help: 'Protocol instances live at this member (one per name in use)',
          labelNames: ['member'],
          registers,
        }),
    );
    this.#reclaimed = metric(
      registry,
      'critsec_lock_reclaimed_total',
      () =>
        new Counter({
          name: 'critsec_lock_reclaimed_total',
          help: 'Idle protocol instances reclaimed',
          labelNames: ['member'],
          registers,
        }),
    );
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
    this.#messages.inc({ member: this.#member, type });
  }

  instances(live: number): void {
    this.#instances.set({ member: this.#member }, live);
  }

  reclaimed(names: readonly string[]): void {
    this.#reclaimed.inc({ member: this.#member }, names.length);
    for (const name of names) this.#holders.remove({ member: this.#member, name });
  }
}
