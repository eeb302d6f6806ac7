/**
 * The transport compliance suite's delivery concern (DESIGN.md 3.2): every (from, to, channel)
 * stream — self-delivery and nested channels included — arrives complete, in order, exactly once.
 */
import type { Endpoint, Message, ProcessId } from '@critsec/core';
import { check, type TransportComplianceContext, withTransport } from './transport-setup.js';

/**
 * Registers the stream test: every process sends `messages` numbered messages to every process
 * (itself included) on channels `a`, `b` and `a/inner`; each receiver checks each stream's order.
 */
export function streamTests(ctx: TransportComplianceContext): void {
  const { n, messages: m } = ctx;
  ctx.it(
    `${ctx.setup.name}: every (from, to, channel) stream arrives complete, in order, exactly once — self included`,
    () =>
      withTransport(ctx, async (t) => {
        const paths = [['a'], ['b'], ['a', 'inner']];
        const channel = (ep: Endpoint, p: string[]) => p.reduce((e, name) => e.channel(name), ep);
        const next = new Map<string, number>();
        const errors: string[] = [];
        let received = 0;
        t.endpoints.forEach((ep, i) => {
          for (const p of paths) {
            channel(ep, p).onMessage((from: ProcessId, msg: Message) => {
              const key = `${from}>${i}/${p.join('/')}`;
              const seq = (msg as Message & { seq: number }).seq;
              const want = next.get(key) ?? 0;
              if (seq !== want) errors.push(`${key}: got seq ${seq}, expected ${want}`);
              next.set(key, seq + 1);
              received++;
            });
          }
        });
        for (let s = 0; s < m; s++) {
          for (let from = 0; from < n; from++) {
            for (let to = 0; to < n; to++)
              for (const p of paths) channel(t.endpoints[from]!, p).send(to, { type: 'SEQ', seq: s });
          }
        }
        const total = n * n * paths.length * m;
        await t.drive(() => received >= total || errors.length > 0);
        check(errors.length === 0, `out of order or duplicated: ${errors.slice(0, 5).join('; ')}`);
        check(received === total, `received ${received} of ${total} messages`);
      }),
    ctx.timeout,
  );
}
