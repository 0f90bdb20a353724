import type { APIEmbedField } from 'discord.js';
import { COLOUR } from '../../model/colours.js';
import { clip, fitView, LIMITS, type MessageView } from '../../model/limits.js';
import { formatMoney } from '../../model/money.js';
import { plural } from '../../model/plural.js';
import type { Leaderboard } from '../leaderboard.js';
import type { MultiPart } from '../multis.js';
import type { GroupReport, Report } from '../report.js';
import type { Skill } from '../skill.js';
import type { EdgeAtPlacement, MemberDiscipline } from '../staking.js';
import { multiCountText, multiLines } from './multis.js';

export const STATS_CHART_FILE = 'stats.png';

/** Money as everywhere else: $1,600.00, -$20.00 (thousands grouped). */
const money = (cents: number) => formatMoney(cents);
const pct = (x: number | null, signed = false) =>
  x === null ? '–' : `${signed && x > 0 ? '+' : ''}${(x * 100).toFixed(2)}%`;
const signedNum = (x: number | null) => (x === null ? '–' : `${x > 0 ? '+' : ''}${x.toFixed(4)}`);
const units = (x: number) => `${x > 0 ? '+' : ''}${x.toFixed(2)}u`;

const field = (name: string, value: string, inline = true): APIEmbedField => ({
  name: clip(name, LIMITS.fieldName),
  value: clip(value || '–', LIMITS.fieldValue),
  inline,
});

export interface StatsViewInput {
  /** Who and what the numbers cover, e.g. "<@123> · bookie_a · last 30 days". */
  scope: string;
  report: Report;
  /** The staking report (edge at placement, stake discipline); absent: not shown. */
  staking?: { edge: EdgeAtPlacement; discipline: MemberDiscipline[] };
  byBook: GroupReport[];
  /** Mean CLV with its interval and verdict. */
  skill: Skill;
  /** Whether a chart file is attached to the message. */
  chart: boolean;
  /** The same-race multis among the bets (absent: none). */
  multis?: MultiPart;
}

export function statsView(input: StatsViewInput): MessageView {
  const { pnl, clv } = input.report;
  const capture =
    clv.settled === 0
      ? 'no settled bets'
      : `${pct(clv.captureRate)} (${clv.settledWithClose} of ${clv.settled} settled)`;
  const fields: APIEmbedField[] = [
    field(
      'Bets',
      `${pnl.bets} (${pnl.won} won · ${pnl.lost} lost · ${pnl.voided} void · ${pnl.cashedOut} cashed out · ${pnl.open} open)`,
      false,
    ),
    field('Turnover', money(pnl.turnoverCents)),
    field('Profit', money(pnl.profitCents)),
    field('Yield', pct(pnl.yield, true)),
    field('Strike rate', pct(pnl.strikeRate)),
    field('Max drawdown', money(pnl.maxDrawdownCents)),
  ];
  if (pnl.roiOnBank !== null) fields.push(field('ROI on bank', pct(pnl.roiOnBank, true)));
  if (pnl.units) fields.push(field('Units', `${units(pnl.units.profit)} on ${pnl.units.turnover.toFixed(2)}u staked`));
  if (pnl.unknownReturn > 0)
    fields.push(field('Return unknown', `${plural(pnl.unknownReturn, 'settled bet')} left out of the money`));
  fields.push(
    field('Close captured', capture),
    field('CLV (mean)', `${pct(clv.meanClv, true)} · log ${signedNum(clv.meanLogClv)}`),
    field('Beat the close', clv.withClose ? `${pct(clv.beatCloseRate)} of ${clv.withClose}` : '–'),
    field('Skill or luck?', skillText(input.skill), false),
    field('EV vs no-vig close', clv.evBets ? `${pct(clv.meanEv, true)} over ${plural(clv.evBets, 'bet')}` : '–'),
  );
  if (clv.noEv > 0) fields.push(field('EV left out', `${plural(clv.noEv, 'bet')}: market incomplete at the close`));
  if (input.multis) {
    fields.push(field('Same-race multis (in every figure above)', multiLines(input.multis).join('\n'), false));
  }
  if (input.staking) fields.push(...stakingFields(input.staking.edge, input.staking.discipline));
  if (input.byBook.length > 1) {
    fields.push(
      field(
        'By book',
        input.byBook
          .map(
            (g) =>
              `**${g.key}** ${money(g.pnl.profitCents)} · yield ${pct(g.pnl.yield, true)} · CLV ${pct(g.clv.meanClv, true)}`,
          )
          .join('\n'),
        false,
      ),
    );
  }
  return fitView({
    embeds: [
      {
        title: 'Stats',
        description: input.scope,
        color: COLOUR.info,
        fields: fields.slice(0, LIMITS.embedFields),
        ...(input.chart ? { image: { url: `attachment://${STATS_CHART_FILE}` } } : {}),
        footer: {
          text: `CLV = price taken / closing price - 1; EV only where the closing market was complete.${input.multis ? " A multi's CLV: its fair chance at the race's close / its fair chance when taken - 1." : ''}`,
        },
      },
    ],
    components: [],
  });
}

/** Edge at placement beside the close's EV, and each member's stakes against the suggested ones. */
function stakingFields(edge: EdgeAtPlacement, discipline: MemberDiscipline[]): APIEmbedField[] {
  const placement = edge.bets
    ? [
        `${pct(edge.meanEdge, true)} over ${plural(edge.bets, 'bet')} with a fair price`,
        edge.withCloseEv
          ? `at the close: EV ${pct(edge.meanCloseEv, true)} over ${edge.withCloseEv}; same sign on ${pct(edge.sameSign)}`
          : 'no close to compare yet',
      ].join('\n')
    : 'no bets with a fair price at placement';
  const lines = discipline.map(
    (d) =>
      `<@${d.member}> staked ${money(d.stakedCents)} vs suggested ${money(d.suggestedCents)} · ${d.over} of ${d.bets} above`,
  );
  return [
    field('Edge at placement', placement, false),
    field('Stake discipline (staked vs suggested)', lines.join('\n') || 'no bets with a suggested stake', false),
  ];
}

/** The verdict in plain words, e.g. "beats the close: 95 % interval +1.20% to +3.80% (120 bets)". */
export function skillText(skill: Skill): string {
  const v = skill.verdict;
  if (v.kind === 'too-few') return `too few bets to tell: ${v.have} of the ${v.need} needed (bets with a close)`;
  const range = `${Math.round(v.interval.confidence * 100)} % interval ${pct(v.interval.low, true)} to ${pct(v.interval.high, true)}`;
  const verdict =
    v.kind === 'beats-close' ? 'beats the close' : v.kind === 'behind-close' ? 'behind the close' : 'no clear edge yet';
  return `${verdict}: ${range} (${plural(skill.n, 'bet')})`;
}

export function leaderboardView(board: Leaderboard, scope: string): MessageView {
  const lines = board.ranked
    .slice(0, 20)
    .map(
      (r, i) =>
        `**${i + 1}.** <@${r.member}> CLV ${pct(r.clv.meanClv, true)} · ${skillText(r.skill)} · beat close ${pct(r.clv.beatCloseRate)} · profit ${money(r.profitCents)}${r.multis ? ` · ${multiCountText(r.multis)} among them` : ''}`,
    );
  const waiting = board.tooFew.map((t) => `<@${t.member}> (${t.withClose})`).join(', ');
  return fitView({
    embeds: [
      {
        title: 'Leaderboard by closing line value',
        footer: {
          text: 'Ranked by the low end of each 95 % interval of mean CLV, so a short lucky run does not lead.',
        },
        description: clip(
          [
            scope,
            lines.length ? lines.join('\n') : `Nobody has ${board.minBets} bets with a captured close yet.`,
            ...(waiting ? [`Not ranked yet (under ${board.minBets} bets with a close): ${waiting}`] : []),
          ].join('\n\n'),
          LIMITS.embedDescription,
        ),
        color: COLOUR.info,
      },
    ],
    components: [],
  });
}
