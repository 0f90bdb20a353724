import { formatMoney } from '../../model/money.js';
import { plural } from '../../model/plural.js';
import type { MultiPart } from '../multis.js';

const pct = (x: number | null) => (x === null ? '–' : `${x > 0 ? '+' : ''}${(x * 100).toFixed(2)}%`);

/** "1 multi · 3 legs", "3 multis · 2 legs each", "3 multis · 2 of 2 legs, 1 of 3 legs". */
export function multiCountText(m: Pick<MultiPart, 'bets' | 'byLegs'>): string {
  const [only] = m.byLegs;
  if (m.byLegs.length === 1 && only) {
    return `${plural(m.bets, 'multi')} · ${only.legs} legs${m.bets > 1 ? ' each' : ''}`;
  }
  return `${plural(m.bets, 'multi')} · ${m.byLegs.map((g) => `${g.bets} of ${g.legs} legs`).join(', ')}`;
}

/** The multis' part of a report, in lines: what they are, their money and their closing value. */
export function multiLines(m: MultiPart): string[] {
  const { pnl, clv } = m;
  const close = clv.withClose
    ? `CLV against the race's close ${pct(clv.meanClv)} (${plural(clv.withClose, 'multi')} with a close) · EV at the fair close ${pct(clv.meanEv)}`
    : 'no close captured yet';
  return [
    multiCountText(m),
    `${pnl.won} won · ${pnl.lost} lost · ${pnl.voided} void · ${pnl.open} open · profit ${formatMoney(pnl.profitCents)} on ${formatMoney(pnl.turnoverCents)} staked`,
    close,
  ];
}
