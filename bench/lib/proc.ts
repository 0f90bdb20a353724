// Readings of other processes from /proc.
import { readFileSync } from 'node:fs';

/** CPU seconds a process has used so far (its stat's utime and stime); 0 where there is no /proc or it is gone. */
export function cpuSecondsOf(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}
