/**
 * The transport compliance suite's addressing concern: each endpoint reports its id, its peers
 * and its channel path; a send to an unknown peer is refused with a `TransportError`; a message
 * for a channel nobody listens on does not disturb the others.
 */
import { check, type TransportComplianceContext, withTransport } from './transport-setup.js';

/** Registers the two addressing tests (identity and unknown peers; unheard channels). */
export function addressingTests(ctx: TransportComplianceContext): void {
  const { n } = ctx;
  ctx.it(
    `${ctx.setup.name}: peers and path are reported; an unknown peer is refused with TransportError`,
    () =>
      withTransport(ctx, (t) => {
        t.endpoints.forEach((ep, i) => {
          check(ep.self === i, `endpoint ${i} says self = ${ep.self}`);
          check(
            ep.peers.length === n && ep.peers.every((p, k) => p === k),
            `endpoint ${i}: peers ${JSON.stringify(ep.peers)}`,
          );
          check(
            ep.path === '' && ep.channel('x').channel('y').path === 'x/y',
            `endpoint ${i}: wrong channel paths`,
          );
        });
        let threw: unknown;
        try {
          t.endpoints[0]!.send(n + 5, { type: 'X' });
        } catch (e) {
          threw = e;
        }
        check(
          (threw as { code?: string } | undefined)?.code === 'TRANSPORT',
          `send to an unknown peer gave ${String(threw)}`,
        );
      }),
    ctx.timeout,
  );

  ctx.it(
    `${ctx.setup.name}: a message for a channel nobody listens on does not disturb the others`,
    () =>
      withTransport(ctx, async (t) => {
        let got = 0;
        t.endpoints[1]!.channel('live').onMessage(() => got++);
        t.endpoints[0]!.channel('nobody').send(1, { type: 'LOST' });
        t.endpoints[0]!.channel('live').send(1, { type: 'OK' });
        await t.drive(() => got === 1);
        check(got === 1, 'the live channel did not get its message');
      }),
    ctx.timeout,
  );
}
