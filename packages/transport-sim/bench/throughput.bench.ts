/**
 * Raw delivery throughput of the simulated network: n processes under unit delays, each
 * forwarding every message it receives to a random peer, with `inFlightPerProcess` messages per
 * process circulating. Prints delivered messages per CPU-second (`process.cpuUsage`, user +
 * system: wall time on a shared machine says little), and the heap an in-flight message costs at
 * n = 1,000 and n = 10,000 (flat: the simulator keeps no per-link state under unit delays).
 * Ratios only; no assertion.
 *
 *   npm run bench -w @critsec/transport-sim
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Message } from '@critsec/core';
import { type DelayModel, exponentialDelay, SimNetwork, unitDelay } from '../src/index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** A network of `n` forwarding processes with `inFlightPerProcess` messages each sent. */
function forwarding(n: number, inFlightPerProcess: number, delay: DelayModel): SimNetwork {
  const net = new SimNetwork({ n, seed: 1, delay });
  const rng = net.rng('bench');
  for (let i = 0; i < n; i++) {
    const ep = net.endpoint(i);
    ep.onMessage((_from, msg: Message) => ep.send(rng.int(n), msg));
  }
  for (let i = 0; i < n; i++)
    for (let k = 0; k < inFlightPerProcess; k++) net.endpoint(i).send(rng.int(n), { type: 'HOP', k });
  return net;
}

async function measure(label: string, n: number, inFlight: number, horizon: number, delay = unitDelay) {
  const net = forwarding(n, inFlight, delay);
  const cpu0 = process.cpuUsage();
  await net.run({ until: horizon });
  const used = process.cpuUsage(cpu0);
  const cpuSeconds = (used.user + used.system) / 1e6;
  const delivered = net.counters().delivered;
  const rate = delivered / cpuSeconds;
  console.log(
    `${label.padEnd(46)} delivered ${delivered.toLocaleString('en-US').padStart(11)} in ${cpuSeconds.toFixed(2).padStart(6)} CPU-s  →  ${Math.round(rate).toLocaleString('en-US')} msg/CPU-s`,
  );
  return rate;
}

/** Heap bytes per in-flight message once `n × inFlight` messages are sent (after a full GC). */
function heapPerMessage(n: number, inFlight: number): number {
  gc();
  const before = process.memoryUsage().heapUsed;
  const net = forwarding(n, inFlight, unitDelay);
  gc();
  const after = process.memoryUsage().heapUsed;
  const perMessage = (after - before) / (n * inFlight);
  console.log(
    `n=${n.toLocaleString('en-US')}, ${inFlight} in flight/process: ${perMessage.toFixed(0)} heap bytes per in-flight message (network and endpoints included)`,
  );
  net.close();
  return perMessage;
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
const small = heapPerMessage(1_000, 100);
const large = heapPerMessage(10_000, 100);
console.log(
  `\nunit-delay throughput: ${Math.round(unit).toLocaleString('en-US')} msg/CPU-s (target ≥ 1,000,000)`,
);
console.log(`exponential / unit ratio: ${(expo / unit).toFixed(2)}`);
console.log(`heap per in-flight message, n=10,000 / n=1,000: ${(large / small).toFixed(2)} (flat ≈ 1)`);
