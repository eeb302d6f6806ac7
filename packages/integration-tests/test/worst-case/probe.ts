import { runSchedule } from './schedule.js';
import { contendedSpace } from './search.js';
const sp = contendedSpace(process.argv[2]!, true);
const t0 = performance.now();
let fails = 0;
for (let i = 0; i < 4096; i++) { const t = performance.now(); const f = await runSchedule(sp.at(i)); const dt = performance.now() - t; if (dt > 300 || !f.ok) { fails++; if (fails < 6) console.log(i, dt.toFixed(0), f.events, f.failure, JSON.stringify(sp.at(i))); } if (i % 512 === 0) console.log('at', i, ((performance.now() - t0)/1000).toFixed(1), 's'); }
console.log('done', fails, ((performance.now() - t0)).toFixed(0), 'ms');
