/** The README's example: one handler step the outbox way (stage, commit, then send), then a crash and a recovery. */
import { memoryDisk, memoryStore } from '@critsec/store';

// the simulator's store; a member on disk uses `await lmdbStore(path, options)` — same interface
const disk = memoryDisk();
const store = memoryStore(disk, { cluster: 'demo', member: 0, mode: 'create' });
const sent: string[] = [];

// an arbiter's handler for REQUEST (synchronous, as every handler): change the state, stage it,
// commit, and send LOCKED only once the grant is durable
function onRequest(from: number): void {
  store.stage('grant', { holder: from });
  store.stage('clock', 1);
  void store.commit().then(
    () => sent.push(`LOCKED to ${from}`), // the outbox: sent after the sync
    () => {}, // not durable (crash, I/O error): send nothing
  );
}

onRequest(3);
onRequest(4); // same turn: one transaction, one sync for both steps
await store.commit();
console.log(sent); // [ 'LOCKED to 3', 'LOCKED to 4' ]

// a crash loses what was not committed; a restart recovers the last committed state
store.stage('grant', { holder: 5 });
store.crash();
const again = memoryStore(disk, { cluster: 'demo', member: 0, mode: 'recover' });
console.log(again.load().records.get('grant')); // { version: 1, value: { holder: 4 } }
console.log(again.identity.incarnation); // 2
