/**
 * Two "meetings" share one room: 9 people, each joins meeting 0 or 1 a few times; people of the
 * same meeting may be in the room together, never people of different meetings. Maekawa_M over
 * the surficial 2-group quorum system (3×3 grid: rows for meeting 0, columns for meeting 1).
 */
import { groupSpec, withCS } from '@critsec/core';
import { surficial } from '@critsec/coteries';
import { groupMutex } from '@critsec/group-mutex';
import { createCluster } from '@critsec/harness';

const cluster = createCluster({
  factory: groupMutex({ system: surficial(9, 2), variant: 'M' }),
  spec: groupSpec(2, 9),
});
const { net, objects, monitor } = cluster;
let together = 0;
const track = () => {
  together = Math.max(together, monitor.inCS);
};
for (const cs of objects) cs.on('statechange', track);
const person = async (i: number) => {
  for (let round = 0; round < 3; round++) {
    const meeting = (i + round) % 2;
    monitor.setRequest(i, meeting); // tell the safety monitor which group enters
    await withCS(objects[i]!, () => net.sleep(2), meeting); // in the room for 2 time units
  }
};
const everyone = Promise.all(objects.map((_, i) => person(i)));
await net.run();
await everyone;
console.log(
  `27 sessions, at most ${together} people in the room together; violations: ${monitor.violations.length}`,
);
