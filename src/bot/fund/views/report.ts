import type { APIEmbedField } from 'discord.js';
import { skillText } from '../../analytics/index.js';
import { COLOUR } from '../../model/colours.js';
import { leagueName } from '../../model/leagues.js';
import { clip, fitView, LIMITS, type MessageView } from '../../model/limits.js';
import { formatMoney } from '../../model/money.js';
import { plural } from '../../model/plural.js';
import type { FundReport, GroupPnl } from '../fund-report.js';
import { formatPriceChange, formatUnitPrice } from '../model/unit-price.js';
import { attributionNotes, multiText, tipsterLines } from './tipsters.js';

export const REPORT_CHART_FILE = 'fund-report.png';

const money = (cents: number) => formatMoney(cents);
const MAX_GROUPS = 8;

const field = (name: string, value: string): APIEmbedField => ({
  name: clip(name, LIMITS.fieldName),
  value: clip(value || '–', LIMITS.fieldValue),
});

/** One line per group, named as members read it (`name`: "NBA" for the key "basketball_nba"). */
function groups(rows: readonly GroupPnl[], name: (key: string) => string = (key) => key): string {
  if (rows.length === 0) return 'no settled fund bet';
  const shown = rows
    .slice(0, MAX_GROUPS)
    .map((g) => `${name(g.key)}: **${money(g.pnlCents)}** (${plural(g.bets, 'bet')})`);
  if (rows.length > MAX_GROUPS) shown.push(`… and ${rows.length - MAX_GROUPS} more`);
  return shown.join('\n');
}

function navText(r: FundReport): string {
  if (!r.nav) return 'No two strikes to compare in this period.';
  const { from, to } = r.nav;
  const change = to.navAfterCents - from.navAfterCents;
  return `${money(from.navAfterCents)} → **${money(to.navAfterCents)}** (${change >= 0 ? '+' : ''}${money(change)}); a unit ${formatUnitPrice(from.price)} → ${formatUnitPrice(to.price)} (${formatPriceChange(from.price, to.price)}). NAV also moves with contributions, cash-outs and the fee.`;
}

/**
 * The fund's report for a period: the weekly post and /fund report. `chart`: a PNG is attached; `onDemand`: this is
 * /fund report's own answer (with no chart it says why, instead of pointing at itself).
 */
export function fundReportView(r: FundReport, opts: { chart: boolean; onDemand?: boolean }): MessageView {
  const t = r.tipsters;
  const tipsters =
    t.rows.length === 0
      ? 'no settled fund bet'
      : [...tipsterLines(t, 10), `Fund: **${money(t.fund.pnlCents)}** over ${plural(t.fund.bets, 'bet')}`].join('\n');
  const notes = attributionNotes(t);
  const fields = [
    field('NAV', navText(r)),
    field('P&L by tipster', tipsters),
    field('By league', groups(r.byLeague, leagueName)),
    field('By book', groups(r.byBook)),
    ...(r.multis ? [field('Same-race multis (in the lines above)', multiText(r.multis))] : []),
    field('CLV', skillText(r.skill)),
    field('Limits', r.limits.length > 0 ? r.limits.join('\n') : 'none set (a treasurer sets them with /fund limits)'),
  ];
  const noChart = opts.onDemand
    ? 'No chart: no fund bet settled in this period.'
    : 'The chart of the period: /fund report.';
  const footer = [...notes, opts.chart ? '' : noChart].filter(Boolean).join(' ');
  return fitView({
    embeds: [
      {
        title: clip(`The fund's report · ${r.label}`, LIMITS.embedTitle),
        color: COLOUR.info,
        fields,
        ...(opts.chart ? { image: { url: `attachment://${REPORT_CHART_FILE}` } } : {}),
        ...(footer ? { footer: { text: clip(footer, LIMITS.footer) } } : {}),
      },
    ],
    components: [],
  });
}
