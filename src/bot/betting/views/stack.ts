// A stack slip and its records in words (decision 2010): each multi with its legs, stake and floor, then what
// became of each once the book answered.
import { BET_STATES, inStates } from '../../model/bet-states.js';
import { COLOUR } from '../../model/colours.js';
import { clip, fitView, LIMITS, type MessageView } from '../../model/limits.js';
import { formatMoney } from '../../model/money.js';
import { positionWords } from '../../model/multi-fair.js';
import { formatOdds, potentialReturnCents } from '../../model/odds.js';
import type { MultiSlipInfo } from '../../model/racing-bet.js';
import type { SlipPayload, StackedMulti } from '../../model/slip-rules.js';
import type { BetRecord } from '../bet-records.js';
import { RANK } from '../model/edit-rank.js';

const pct = (p: number) => `${(Math.round(p * 1000) / 10).toFixed(1)} %`;

/** When the legs' win prices were read some seconds before the slip (decision 2050), a line saying how long. */
export const pricesAgeLine = (multi: MultiSlipInfo): string =>
  multi.pricesAgeS ? `\nWin prices as the books gave them ${multi.pricesAgeS} s before this slip.` : '';

/** A multi's legs, one a line, and its fair price when the books gave one. */
function multiLines(m: Pick<StackedMulti, 'multi'>): string {
  const legs = m.multi.legs.map((l) => `${l.runner} — ${positionWords(l.position)} (win ${formatOdds(l.winPrice)})`);
  const p = m.multi.probability;
  return [
    ...legs,
    p === undefined ? 'Fair: none (no book priced the whole field)' : `Fair ${formatOdds(1 / p)} (${pct(p)})`,
  ]
    .join('\n')
    .concat(pricesAgeLine(m.multi));
}

/** "Multi 2 · $3.00 · floor 5.00" */
const multiName = (i: number, m: StackedMulti) =>
  `Multi ${i + 1} · ${formatMoney(m.stakeCents)}${m.useBonusBet ? ' bonus token' : ''} · floor ${m.minOdds === undefined ? 'none' : formatOdds(m.minOdds)}`;

/** What the stack's bonus multis stake, in words (decision 2051); empty without one. */
function bonusText(multis: readonly StackedMulti[]): string {
  const bonus = multis.flatMap((m, i) => (m.useBonusBet ? [i + 1] : []));
  if (bonus.length === 0) return '';
  const cash = multis.reduce((a, m) => a + (m.useBonusBet ? 0 : m.stakeCents), 0);
  return ` Multi ${bonus.join(', ')} ${bonus.length === 1 ? 'stakes a bonus token' : 'each stake a bonus token'} worth exactly ${bonus.length === 1 ? 'its' : 'their'} stake, not the syndicate's cash (a win pays the winnings without the stake; a loss costs only the token): the stack takes ${formatMoney(cash)} of cash.`;
}

/** A stack slip's fields: one per multi, then the race, the book, the account and the stack's whole stake. */
export function stackFields(slip: SlipPayload, account: string) {
  const multis = slip.stack ?? [];
  const first = multis[0]?.multi;
  return [
    ...multis.map((m, i) => ({ name: clip(multiName(i, m), 256), value: clip(multiLines(m), LIMITS.fieldValue) })),
    {
      name: 'Race',
      value: clip(`${slip.eventName} ${first?.raceType ?? ''} · ${first?.date ?? ''}`, LIMITS.fieldValue),
    },
    ...(slip.userId ? [{ name: 'Bettor', value: `<@${slip.userId}>`, inline: true }] : []),
    { name: 'Book', value: clip(slip.bookie, LIMITS.fieldValue), inline: true },
    { name: 'Account', value: clip(account, LIMITS.fieldValue), inline: true },
    { name: 'Total stake', value: formatMoney(slip.stakeCents), inline: true },
    {
      name: 'How it is placed',
      value: `In one call to the book. Each multi is priced by the book as it takes it; if any multi's price is under its floor, the book places none of them.${bonusText(multis)}`,
    },
  ];
}

/** What became of one multi of a stack, in a member's words. */
function partText(r: BetRecord): { head: string; body: string } {
  const odds = r.odds ?? r.payload.shownOdds;
  switch (r.state) {
    case 'placed':
    case 'settled':
    case 'missing':
      return {
        head: 'placed ✅',
        body: `Bet ${r.betId ?? '?'} at ${formatOdds(odds)} · possible return ${formatMoney(potentialReturnCents(r.stakeCents, odds))}`,
      };
    case 'refused':
      return { head: 'refused ❌', body: `${r.note ?? 'the bookmaker refused it'}. Nothing staked.` };
    case 'not_sent':
    case 'not_placed':
      return { head: 'not placed', body: `${r.note ?? 'not placed'}. Nothing staked; the hold is released.` };
    case 'unknown':
      return {
        head: 'result unknown',
        body: "Not resent: the desk is checking the book's history and will update this message.",
      };
    default:
      return { head: 'with the book', body: 'Waiting for the book…' };
  }
}

/** The outbox rank of a stack's message: the sum of its records' stages, so each move on outranks the last. */
function stackRank(records: readonly BetRecord[]): number {
  const of = (r: BetRecord) =>
    inStates(BET_STATES.submitted)(r)
      ? RANK.submitted
      : inStates(BET_STATES.unknown)(r)
        ? RANK.unknown
        : inStates(BET_STATES.sending)(r)
          ? 0
          : RANK.final;
  return records.reduce((a, r) => a + of(r), 0);
}

/** A stack's title: how many of its multis the book placed, once every one is decided. */
function stackTitle(records: readonly BetRecord[]): { title: string; color: number } {
  const placed = records.filter(inStates(BET_STATES.taken)).length;
  const open = records.filter(inStates(BET_STATES.undecided)).length;
  if (open > 0) {
    return records.some(inStates(BET_STATES.unknown))
      ? { title: 'Stack result unknown', color: COLOUR.muted }
      : { title: 'Stack submitted', color: COLOUR.pending };
  }
  if (placed === 0) return { title: 'Stack not placed', color: COLOUR.refused };
  return { title: `Stack placed ✅ ${placed} of ${records.length} multis`, color: COLOUR.ok };
}

/** A stack slip's message for its records: each multi's outcome, in the stack's order. */
export function stackRecordsView(records: readonly BetRecord[]): { view: MessageView; rank: number } | undefined {
  const head = records[0];
  if (!head) return undefined;
  const { title, color } = stackTitle(records);
  const refusedWhole = records.every(inStates(BET_STATES.refused)) && /whole stack/.test(head.note ?? '');
  return {
    view: fitView({
      content: '',
      embeds: [
        {
          title,
          ...(refusedWhole ? { description: clip(`Refused: ${head.note ?? ''}.`, LIMITS.embedDescription) } : {}),
          color,
          fields: [
            ...records.map((r, i) => {
              const part = partText(r);
              const legs = r.payload.multi ? multiLines({ multi: r.payload.multi }) : r.payload.selectionLabel;
              return {
                name: clip(`Multi ${i + 1} · ${formatMoney(r.stakeCents)} · ${part.head}`, 256),
                value: clip(`${legs}\n${refusedWhole ? 'Not placed.' : part.body}`, LIMITS.fieldValue),
              };
            }),
            { name: 'Race', value: clip(`${head.payload.eventName} · ${head.bookie}`, LIMITS.fieldValue) },
            ...(head.payload.userId ? [{ name: 'Bettor', value: `<@${head.payload.userId}>`, inline: true }] : []),
          ],
          ...(head.correlationId
            ? { footer: { text: clip(`For support: job ${head.correlationId}`, LIMITS.footer) } }
            : {}),
        },
      ],
      components: [],
    }),
    rank: stackRank(records),
  };
}
