/**
 * CPU time a set of processes has used (Linux `/proc/<pid>/stat`: user + system, this process
 * and its waited-for children). A phase's CPU seconds in the apiserver and etcd measure the
 * work admission costs far more steadily than wall time on a shared, loaded machine: other
 * processes delay the work but do not add to it.
 */
import { readFile } from 'node:fs/promises';

/** Clock ticks per second of /proc times (USER_HZ: 100 on every Linux architecture we run). */
export const USER_HZ = 100;

/** utime + stime (fields 14 and 15) of one `/proc/<pid>/stat` line, in seconds. */
export function cpuSecondsOfStat(stat: string): number {
  // The command name (field 2) is in parentheses and may contain spaces: split after it.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state), so field k is rest[k - 3].
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime))
    throw new Error(
      `cannot read CPU times: unexpected stat line ${JSON.stringify(stat.slice(0, 80))}`,
    );
  return (utime + stime) / USER_HZ;
}

/** CPU seconds used so far by `pids` together (a process that has exited counts 0). */
export async function cpuSecondsOf(pids: readonly number[]): Promise<number> {
  let total = 0;
  for (const pid of pids) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
    if (stat !== undefined) total += cpuSecondsOfStat(stat);
  }
  return total;
}
