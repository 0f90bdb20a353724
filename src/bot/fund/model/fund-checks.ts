/**
 * The fund's ledger entries against its rows, for the daily reconciliation (decision 1903). Pure: the caller reads
 * the rows and the entries about them; this names every disagreement in words a treasurer can act on.
 */
import { WITHDRAWAL_MOVES, type WithdrawalState } from './fund-states.js';

export interface FundRowsAndEntries {
  /** Units outstanding as the fund's row reads them. */
  outstanding: number;
  contributions: ReadonlyArray<{ id: string; state: string; units: number | null }>;
  /** Cash-outs struck (a strike id); `fee`: a crystallised fee or tipster share, which cancels no units and has no redemption entry. */
  cashouts: ReadonlyArray<{ id: string; units: number | null; struck: boolean; fee: boolean }>;
  attempts: ReadonlyArray<{ id: string; state: string; amountCents: number; gatewayWithdrawalId: string | null }>;
  /** Every ledger entry about those rows (by ref), oldest first. */
  entries: ReadonlyArray<{ kind: string; ref: string; amountCents: number | null; data: Record<string, unknown> }>;
}

const unitsOf = (e: { data: Record<string, unknown> }) => Number(e.data.units ?? 0);

/** Each disagreement between the fund's rows and its entries, in words; empty when they agree. */
export function fundEntryMismatches(f: FundRowsAndEntries): string[] {
  const out: string[] = [];
  const byRef = new Map<string, Array<FundRowsAndEntries['entries'][number]>>();
  for (const e of f.entries) byRef.set(e.ref, [...(byRef.get(e.ref) ?? []), e]);
  const of = (ref: string, kind: string) => (byRef.get(ref) ?? []).filter((e) => e.kind === kind);

  const issued = f.entries.filter((e) => e.kind === 'fund_issue').reduce((a, e) => a + unitsOf(e), 0);
  const cancelled = f.entries.filter((e) => e.kind === 'fund_redemption').reduce((a, e) => a + unitsOf(e), 0);
  if (issued - cancelled !== f.outstanding) {
    out.push(
      `the ledger issued ${issued} units and cancelled ${cancelled} (${issued - cancelled}), but the fund reads ${f.outstanding} outstanding (millionths of a unit)`,
    );
  }
  for (const c of f.contributions) {
    const es = of(c.id, 'fund_issue');
    const want = c.state === 'issued' ? 1 : 0;
    if (es.length !== want || (want === 1 && unitsOf(es[0] as (typeof es)[number]) !== (c.units ?? 0))) {
      out.push(
        `contribution ${c.id} is ${c.state} with ${c.units ?? 0} units, but the ledger has ${es.length} issue entr${es.length === 1 ? 'y' : 'ies'} for ${es.reduce((a, e) => a + unitsOf(e), 0)} units`,
      );
    }
  }
  for (const c of f.cashouts) {
    if (c.fee) continue;
    const es = of(c.id, 'fund_redemption');
    const want = c.struck ? 1 : 0;
    if (es.length !== want || (want === 1 && unitsOf(es[0] as (typeof es)[number]) !== (c.units ?? 0))) {
      out.push(
        `cash-out ${c.id} ${c.struck ? `cancelled ${c.units ?? 0} units` : 'is not struck'}, but the ledger has ${es.length} redemption entr${es.length === 1 ? 'y' : 'ies'} for ${es.reduce((a, e) => a + unitsOf(e), 0)} units`,
      );
    }
  }
  for (const a of f.attempts) {
    const problem = attemptProblem(a, of(a.id, 'fund_withdrawal'));
    if (problem) out.push(`withdrawal attempt ${a.id}: ${problem}`);
  }
  return out;
}

/** Why an attempt's entries do not retrace its row (begin, then named moves of its table to its state), if so. */
function attemptProblem(
  a: FundRowsAndEntries['attempts'][number],
  entries: ReadonlyArray<FundRowsAndEntries['entries'][number]>,
): string | undefined {
  let at: string | null = null;
  for (const e of entries) {
    const move = String(e.data.move ?? '');
    const t = (WITHDRAWAL_MOVES as Record<string, { from: readonly WithdrawalState[]; to: WithdrawalState }>)[move];
    if (!t) return `an entry names no move of its table (${move || 'none'})`;
    const from = (e.data.from ?? null) as string | null;
    if (from !== at) return `an entry moves it from ${from ?? 'nothing'} while its entries had it ${at ?? 'not begun'}`;
    if (!(from === null ? t.from.length === 0 : (t.from as readonly string[]).includes(from)) || e.data.to !== t.to) {
      return `an entry's move ${move} from ${from ?? 'nothing'} to ${String(e.data.to)} is not its table's`;
    }
    if (e.amountCents !== a.amountCents) {
      return `an entry (${move}) is for ${e.amountCents ?? 0} cents, the attempt for ${a.amountCents}`;
    }
    at = t.to;
  }
  if (at !== a.state) return `its row is ${a.state}, its entries end at ${at ?? 'nothing'}`;
  if (a.state === 'completed') {
    const last = entries.at(-1);
    if (String(last?.data.withdrawalId ?? '') !== (a.gatewayWithdrawalId ?? '')) {
      return `its row names withdrawal ${a.gatewayWithdrawalId ?? 'none'}, its completing entry ${String(last?.data.withdrawalId ?? 'none')}`;
    }
  }
  return undefined;
}
