/**
 * The bench table of the (h,k)-arbiters: quorum sizes and messages per request (no conflict,
 * 3·|q|) of uniform and (k+1)-cube (h,k)-arbiters against the corresponding k-arbiters.
 *
 *   npm run bench        (from packages/h-out-of-k)
 */
import { compareArbiters } from '../src/index.js';

console.log('| n | k | h | uniform (h,k) |q| / msgs | uniform k-arb | cube (h,k) | cube k-arb |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const n of [27, 64, 125, 256]) {
  for (const k of [2, 3]) {
    for (const r of compareArbiters(n, k)) {
      const f = (c: { quorum: number; messages: number }) => `${c.quorum} / ${c.messages}`;
      console.log(
        `| ${n} | ${k} | ${r.h} | ${f(r.uniform)} | ${f(r.uniformK)} | ${f(r.cube)} | ${f(r.cubeK)} |`,
      );
    }
  }
}
