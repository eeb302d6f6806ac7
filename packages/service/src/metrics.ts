/**
 * The service's own Prometheus series (prom-client), beside `@critsec/locks`' in one registry:
 * sessions live and sessions expired, labelled by `member` like the locks' series.
 */
import { Counter, Gauge, type Registry } from 'prom-client';

const SESSIONS = 'critsec_service_sessions';
const EXPIRED = 'critsec_service_sessions_expired_total';

/** The service's series in `registry`, for member `member`. */
export class ServiceMetrics {
  readonly #member: string;
  readonly #sessions: Gauge<'member'>;
  readonly #expired: Counter<'member'>;

  /** Registers the series (or reuses them when another service of the registry did). */
  constructor(registry: Registry, member: number) {
    this.#member = String(member);
    this.#sessions =
      (registry.getSingleMetric(SESSIONS) as Gauge<'member'> | undefined) ??
      new Gauge({
        name: SESSIONS,
        help: 'sessions live at this member’s lock service',
        labelNames: ['member'],
        registers: [registry],
      });
    this.#expired =
      (registry.getSingleMetric(EXPIRED) as Counter<'member'> | undefined) ??
      new Counter({
        name: EXPIRED,
        help: 'sessions that expired (not kept alive within their ttl): their locks released, their waits aborted',
        labelNames: ['member'],
        registers: [registry],
      });
    this.#sessions.set({ member: this.#member }, 0);
    this.#expired.inc({ member: this.#member }, 0);
  }

  /** `n` sessions are live now. */
  sessions(n: number): void {
    this.#sessions.set({ member: this.#member }, n);
  }

  /** One session expired. */
  expired(): void {
    this.#expired.inc({ member: this.#member });
  }

  /** Removes this member's series. */
  close(): void {
    this.#sessions.remove({ member: this.#member });
    this.#expired.remove({ member: this.#member });
  }
}
