// Figure 22's allowance (decision 2144): the share of one core each bot process runs at, chosen so that four
// processes spending it in full, with the database, the sandbox and the driver their confirms keep busy, fit in the
// machine's cores.

/** Each bot process's allowance at most: this share of one core (CFS quota over a 100 ms period). */
export const CPU_SHARE = 0.2;
/** The share of the machine's cores the largest side's expected load may take. */
export const CORES_USED = 0.8;
/**
 * The allowance the calibration run reads the costs at: low enough that four processes and their shared work fit
 * on two cores, since on full cores every process's CPU per confirm reads high and the ratio of the two is off.
 */
export const CALIBRATION_SHARE = 0.1;
/** No allowance below this: a process would spend its runs waiting out CFS periods rather than confirming. */
export const MIN_SHARE = 0.05;

/** What one process's confirms cost, read from a run of `processes` at an allowance (decision 2144). */
export interface Costs {
  /** The machine's cores. */
  cores: number;
  processes: number;
  /** A bot process's CPU per confirm, ms. */
  botMs: number;
  /** The CPU a confirm costs outside the bot processes (the database, the sandbox and the driver), ms. */
  sharedMs: number;
  /** Cores the machine's other work held meanwhile. */
  otherCores: number;
}

/**
 * The allowance at which `processes` bot processes, each spending it in full, fit with the shared work their
 * confirms cost in CORES_USED of the machine's cores: at most CPU_SHARE, never below MIN_SHARE, in hundredths.
 * A process held to `share` confirms about share / botMs a second, and each confirm costs sharedMs elsewhere, so
 * every core the processes spend keeps 1 + sharedMs / botMs cores busy.
 */
export function allowanceFor(c: Costs): number {
  if (!(c.botMs > 0) || !(c.sharedMs >= 0)) return CPU_SHARE;
  const fit = (c.cores * CORES_USED - c.otherCores) / (c.processes * (1 + c.sharedMs / c.botMs));
  return Math.max(MIN_SHARE, Math.min(CPU_SHARE, Math.floor(fit * 100 + 1e-9) / 100));
}

/**
 * The allowance after a check run at `first` (decision 2144, amended): the shared work a confirm costs grows with the
 * rate (the database's sessions contend, the sandbox holds more bets), so costs read at CALIBRATION_SHARE may fit more
 * than fits at the rate `first` runs at. The check's costs may only lower it, never raise it past the first reading.
 */
export function checkedAllowance(first: number, atFirst: Costs): number {
  return Math.min(first, allowanceFor(atFirst));
}
