import { type Attribution, type MultiCount, multiCountText, type TipsterRow } from '../../analytics/index.js';
import { COLOUR } from '../../model/colours.js';
import { clip, fitView, LIMITS, type MessageView } from '../../model/limits.js';
import { formatMoney } from '../../model/money.js';
import { plural } from '../../model/plural.js';

/** Rows shown; the rest are summed into one line so the total still reads whole. */
const MAX_ROWS = 20;

const money = (cents: number) => formatMoney(cents);
const pct = (x: number | null, signed = false) =>
  x === null ? '–' : `${signed && x > 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;

/** "3 multis · 2 legs each: -$4.00", the part of a line or a total that is same-race multis. */
export const multiText = (m: MultiCount): string => `${multiCountText(m)}: ${money(m.pnlCents)}`;

export function tipsterLine(r: TipsterRow): string {
  return (
    `<@${r.member}>: **${money(r.pnlCents)}** (${pct(r.shareOfFund)} of the fund's) · ${plural(r.bets, 'bet')}, ` +
    `${money(r.stakedCents)} staked, ROI ${pct(r.roi, true)} · CLV ${pct(r.meanClv, true)}, ` +
    `beat the close ${pct(r.beatCloseRate)}${r.withClose > 0 ? ` of ${r.withClose}` : ''}` +
    (r.multis ? ` · of them ${multiText(r.multis)}` : '')
  );
}

/** The P&L by tipster, lines that add up to the fund's line below them. */
export function tipsterLines(a: Attribution, max = MAX_ROWS): string[] {
  const lines = a.rows.slice(0, max).map(tipsterLine);
  const rest = a.rows.slice(max);
  if (rest.length > 0) {
    const cents = rest.reduce((s, r) => s + r.pnlCents, 0);
    lines.push(`… and ${plural(rest.length, 'more tipster')}: ${money(cents)}`);
  }
  return lines;
}

/** What is left out of the sum, in words: bets outside the fund and fund bets not yet settled. */
export function attributionNotes(a: Attribution): string[] {
  const notes: string[] = [];
  if (a.outside.bets > 0) {
    const early = a.outside.beforeJoining;
    const elsewhere = a.outside.bets - early;
    const why = [
      elsewhere > 0 ? `${plural(elsewhere, 'bet')} through accounts that are not the fund's` : '',
      early > 0
        ? `${plural(early, 'bet')} placed before ${early === 1 ? 'its' : 'their'} account joined the fund (its float's money)`
        : '',
    ]
      .filter(Boolean)
      .join(' and ');
    notes.push(
      `${plural(a.outside.bets, 'settled bet')} outside the fund (${money(a.outside.pnlCents)}) left out: ${why}.`,
    );
  }
  if (a.pending > 0) notes.push(`${plural(a.pending, 'fund bet')} still open: counted once settled.`);
  return notes;
}

export function tipstersView(a: Attribution, scope: string): MessageView {
  const body =
    a.rows.length === 0
      ? 'No fund bet settled in this period.'
      : [
          ...tipsterLines(a),
          '',
          `**Fund: ${money(a.fund.pnlCents)}** on ${money(a.fund.stakedCents)} staked over ${plural(a.fund.bets, 'bet')}: the sum of the lines above, to the cent.`,
        ].join('\n');
  const notes = attributionNotes(a);
  return fitView({
    embeds: [
      {
        title: clip(`Who made the fund's money · ${scope}`, LIMITS.embedTitle),
        description: clip(body, LIMITS.embedDescription),
        color: COLOUR.info,
        ...(notes.length > 0 ? { footer: { text: clip(notes.join(' '), LIMITS.footer) } } : {}),
      },
    ],
    components: [],
  });
}
