/**
 * Raw delivery throughput of the simulated network: n = 1,000 processes under unit delays,
 * each forwarding every message it receives to a random peer, with `inFlightPerProcess`
 * messages per process circulating. Prints delivered messages per wall-clock second.
 *
 *   npm run bench -w @critsec/transport-sim
 */
import type { Message } from '@critsec/core';
import { exponentialDelay, SimNetwork, unitDelay } from '../src/index.js';

async function measure(
  label: string,
  n: number,
  inFlightPerProcess: number,
  horizon: number,
  delay = unitDelay,
) {
  const net = new SimNetwork({ n, seed: 1, delay });
  const rng = net.rng('bench');
  for (let i = 0; i < n; i++) {
    const ep = net.endpoint(i);
    ep.onMessage((_from, msg: Message) => ep.send(rng.int(n), msg));
  }
  for (let i = 0; i < n; i++)
    for (let k = 0; k < inFlightPerProcess; k++) net.endpoint(i).send(rng.int(n), { type: 'HOP' });
  const t0 = performance.now();
  await net.run({ until: horizon });
  const ms = performance.now() - t0;
  const delivered = net.counters().delivered;
  const rate = delivered / (ms / 1000);
  console.log(
    `${label.padEnd(44)} delivered ${delivered.toLocaleString('en-US').padStart(11)} in ${ms.toFixed(0).padStart(6)} ms  →  ${Math.round(rate).toLocaleString('en-US')} msg/s`,
  );
  return rate;
}

await measure('warm-up', 1000, 10, 20);
const unit = await measure('n=1000, unit delay, 10 in flight/process', 1000, 10, 300);
const expo = await measure(
  'n=1000, exponential(1), 10 in flight/process',
  1000,
  10,
  300,
  exponentialDelay(1),
);
console.log(
  `\nunit-delay throughput: ${Math.round(unit).toLocaleString('en-US')} msg/s (target ≥ 1,000,000)`,
);
console.log(`exponential / unit ratio: ${(expo / unit).toFixed(2)}`);
