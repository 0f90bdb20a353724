// Readings of other processes and of the whole machine from /proc.
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

/**
 * CPU seconds the whole machine has spent busy so far (user, nice, system, irq, softirq, steal in /proc/stat), 0
 * without /proc: less what the run's own processes used, it is the CPU other work took during a run.
 */
export function machineBusySeconds(): number {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
    return [0, 1, 2, 5, 6, 7].reduce((n, i) => n + (cpu[i] ?? 0), 0) / 100;
  } catch {
    return 0;
  }
}
