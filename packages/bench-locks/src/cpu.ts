/**
 * CPU time as the benchmark charges it to a system: this process's own (`process.cpuUsage`, the
 * clients of the Redis, etcd and echo rows and the in-process critsec row) plus that of the
 * server processes the row talks to (redis-server, etcd, the echo server), read from
 * `/proc/<pid>/stat` by `pidusage` (clock-tick resolution, 10 ms on Linux).
 */
import pidusage from 'pidusage';

/** Reads the CPU time (user + system, ms) spent so far by the processes a row covers. */
export type CpuClock = () => Promise<number>;

/** The CPU clock of this process and of the processes `pids`. */
export function cpuClock(pids: readonly number[] = []): CpuClock {
  return async () => {
    const own = process.cpuUsage();
    let ms = (own.user + own.system) / 1000;
    if (pids.length > 0) {
      const stats = await pidusage([...pids]);
      for (const pid of pids) ms += stats[String(pid)]?.ctime ?? Number.NaN;
    }
    return ms;
  };
}

/** Stops `pidusage`'s history timer (call once at the end of the benchmark). */
export function stopCpuClocks(): void {
  pidusage.clear();
}
