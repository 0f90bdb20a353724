/** What one fault scenario found; the runner adds them up into the summary line. */
export interface ScenarioResult {
  name: string;
  survived: boolean;
  duplicateBets: number;
  lostResults: number;
  crashes: number;
  /** Ledger entries missing or extra against the moves that committed (kill -9 scenarios check them). */
  ledgerProblems?: number;
  /** The scenario itself threw (a harness timeout or error): not survived, but no evidence the bot died. */
  threw?: boolean;
  notes: string[];
}

export function emptyResult(name: string): ScenarioResult {
  return { name, survived: false, duplicateBets: 0, lostResults: 0, crashes: 0, notes: [] };
}

export interface Summary {
  survived: number;
  total: number;
  duplicateBets: number;
  lostResults: number;
  crashes: number;
  ledgerProblems: number;
  /** Scenarios that threw before they could judge the bot (counted in total, not in survived). */
  threw: number;
}

export function summarise(results: ScenarioResult[]): Summary {
  return {
    survived: results.filter((r) => r.survived).length,
    total: results.length,
    duplicateBets: results.reduce((n, r) => n + r.duplicateBets, 0),
    lostResults: results.reduce((n, r) => n + r.lostResults, 0),
    crashes: results.reduce((n, r) => n + r.crashes, 0),
    ledgerProblems: results.reduce((n, r) => n + (r.ledgerProblems ?? 0), 0),
    threw: results.filter((r) => r.threw).length,
  };
}

/** Printed just before the summary line: failures of the harness are not crashes of the bot. */
export function failedLine(s: Summary): string {
  return `scenarios failed: ${s.total - s.survived} (of which threw in the harness: ${s.threw}); crashes count only bot processes that died or unhandled errors`;
}

/** The line the chaos run prints last (pasted into docs/performance.md). */
export function summaryLine(s: Summary): string {
  return `faults survived: ${s.survived}/${s.total}, duplicate bets: ${s.duplicateBets}, lost results: ${s.lostResults}, crashes: ${s.crashes}, ledger entries missing or extra: ${s.ledgerProblems}`;
}
