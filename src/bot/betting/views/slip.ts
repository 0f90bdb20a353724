import { ButtonStyle } from 'discord.js';
import { betOutcomeOf } from '../../../gateway/index.js';
import { button, row } from '../../discord/components.js';
import { encodeCustomId } from '../../discord/custom-id.js';
import { startsText } from '../../discord/when.js';
import { COLOUR } from '../../model/colours.js';
import { METHOD_LABEL } from '../../model/fair-price.js';
import { clip, fitView, LIMITS, type MessageView } from '../../model/limits.js';
import { centsFromDollars, formatMoney } from '../../model/money.js';
import { multiMargin, positionWords } from '../../model/multi-fair.js';
import { formatOdds, potentialReturnCents } from '../../model/odds.js';
import { MAX_STACK, type MultiSlipInfo, STACKING_BOOKS } from '../../model/racing-bet.js';
import type { PriceRoute, SlipPayload } from '../../model/slip-rules.js';
import { edgeFields, formatEdge, suggestedLine } from './edge.js';
import { pricesAgeLine, stackFields } from './stack.js';

/** Start time and bettor, when the slip carries them. */
function whoAndWhen(slip: SlipPayload) {
  const starts = startsText(slip.startTime);
  return [
    ...(starts ? [{ name: 'Starts', value: starts }] : []),
    ...(slip.userId ? [{ name: 'Bettor', value: `<@${slip.userId}>`, inline: true }] : []),
  ];
}

export function slipFields(slip: SlipPayload, odds: number, sessionLabel: string) {
  if (slip.stack) return stackFields(slip, sessionLabel);
  if (slip.multi) return multiFields(slip, slip.multi, odds, sessionLabel);
  return [
    { name: 'Selection', value: clip(`${slip.selectionLabel} — ${slip.marketLabel}`, LIMITS.fieldValue) },
    { name: 'Event', value: clip(slip.eventName, LIMITS.fieldValue) },
    ...whoAndWhen(slip),
    { name: 'Book', value: clip(slip.bookie, LIMITS.fieldValue), inline: true },
    { name: 'Account', value: clip(sessionLabel, LIMITS.fieldValue), inline: true },
    { name: 'Live price', value: formatOdds(odds), inline: true },
    { name: 'Stake', value: formatMoney(slip.stakeCents), inline: true },
    { name: 'Potential return', value: formatMoney(potentialReturnCents(slip.stakeCents, odds)), inline: true },
    ...(slip.minOdds === undefined ? [] : [{ name: 'Min odds', value: formatOdds(slip.minOdds), inline: true }]),
    ...edgeFields(slip, odds),
  ];
}

/** What a bonus multi's stake is, in words (decision 2051). */
export const BONUS_STAKE_WORDS = "(a bonus token: not the syndicate's cash; a win pays the winnings without the stake)";

/** A bet's possible return: a bonus stake is not paid back, so a bonus bet returns the winnings only. */
const bonusAwareReturn = (stakeCents: number, odds: number, bonus: boolean | undefined): number =>
  potentialReturnCents(stakeCents, odds) - (bonus ? stakeCents : 0);

const pct = (p: number) => `${(Math.round(p * 1000) / 10).toFixed(1)} %`;

/**
 * A same-race multi's fields: every leg with the book's win price and its fair chance, the book's price (known only
 * once the book takes it; `odds` is the slip's floor until then), the floor, the possible return, the fair price,
 * the edge and the book's margin at the price shown, and the suggested stake.
 */
function multiFields(slip: SlipPayload, multi: MultiSlipInfo, odds: number, account: string) {
  const priced = odds !== slip.shownOdds;
  const legs = multi.legs
    .map(
      (l, i) =>
        `${i + 1}. ${l.runner} — ${positionWords(l.position)} (win ${formatOdds(l.winPrice)}${l.probability === undefined ? '' : ` · fair ${pct(l.probability)}`})`,
    )
    .join('\n')
    .concat(pricesAgeLine(multi));
  const floor = slip.minOdds;
  const at = priced ? odds : floor;
  const value = multiFairText(multi, at, priced);
  const suggested = slip.edge ? suggestedLine(slip.edge, slip.capBankCents) : undefined;
  return [
    { name: `Legs (${multi.legs.length}, all must come true)`, value: clip(legs, LIMITS.fieldValue) },
    { name: 'Race', value: clip(`${slip.eventName} ${multi.raceType} · ${multi.date}`, LIMITS.fieldValue) },
    ...whoAndWhen(slip),
    { name: 'Book', value: clip(slip.bookie, LIMITS.fieldValue), inline: true },
    { name: 'Account', value: clip(account, LIMITS.fieldValue), inline: true },
    {
      name: 'Book price',
      value: priced ? formatOdds(odds) : 'set by the book when it takes the multi (it quotes none before)',
      inline: true,
    },
    { name: 'Floor', value: floor === undefined ? "none (the book's price)" : formatOdds(floor), inline: true },
    {
      name: 'Stake',
      value: `${formatMoney(slip.stakeCents)}${slip.useBonusBet ? ` ${BONUS_STAKE_WORDS}` : ''}`,
      inline: true,
    },
    {
      name: 'Possible return',
      value:
        at === undefined
          ? `stake × ${slip.useBonusBet ? "(the book's price − 1)" : "the book's price"}`
          : `${priced ? '' : 'at least '}${formatMoney(bonusAwareReturn(slip.stakeCents, at, slip.useBonusBet))}`,
      inline: true,
    },
    { name: 'Fair price', value: clip(value, LIMITS.fieldValue) },
    ...(suggested ? [{ name: 'Suggested stake', value: suggested, inline: true }] : []),
  ];
}

/** A multi's fair price and chance, and the edge and the book's margin at `at` (the book's price, or the floor). */
function multiFairText(multi: MultiSlipInfo, at: number | undefined, priced: boolean): string {
  const p = multi.probability;
  if (p === undefined) return `No book priced the whole field to win: no fair price (${METHOD_LABEL[multi.method]}).`;
  return [
    `Fair ${formatOdds(1 / p)} (chance ${pct(p)}; Harville over ${METHOD_LABEL[multi.method]} win chances, ${multi.books} book${multi.books === 1 ? '' : 's'})`,
    at === undefined
      ? "Edge: known at the book's price; give a floor (min_odds:6.00 on /multi) to see it here"
      : `${priced ? "At the book's price" : 'At your floor'} ${formatOdds(at)}: edge ${formatEdge(p * at - 1)} · book margin ${pct(multiMargin(p, at))}`,
  ].join('\n');
}

/** The account a slip bets through, by its user name at the book (a slip stored before names were kept: its id). */
export function sessionLabel(slip: SlipPayload): string {
  return slip.account ?? slip.sessionId;
}

/** "Best price of 3 books: bookie_b 2.10 (bookie_a 2.05, bookie_c 2.00)". */
export function routeLine(route: PriceRoute): string {
  const [best, ...rest] = route.priced;
  if (!best) return '';
  const n = route.priced.length;
  const others = rest.map((r) => `${r.book} ${formatOdds(r.price)}`).join(', ');
  const head =
    n === 1
      ? `The one book that can take it: ${best.book} ${formatOdds(best.price)}`
      : `Best price of ${n} books: ${best.book} ${formatOdds(best.price)}`;
  return others ? `${head} (${others})` : head;
}

/**
 * "Left out: bookie_b (not taking bets on this event); …", or '' when none was. Books left out for one reason share
 * it ("bookie_b, bookie_c (outside the fund: …)"), said once.
 */
export function leftOutLine(route: PriceRoute): string {
  if (route.leftOut.length === 0) return '';
  const byWhy = new Map<string, string[]>();
  for (const l of route.leftOut) byWhy.set(l.why, [...(byWhy.get(l.why) ?? []), l.book]);
  return `Left out: ${[...byWhy].map(([why, books]) => `${books.join(', ')} (${why})`).join('; ')}`;
}

/** Both lines about a routed slip's book, or '' for a slip whose book the member named. */
export function routeText(route: PriceRoute | undefined): string {
  return route ? [routeLine(route), leftOutLine(route)].filter(Boolean).join('\n') : '';
}

/** What a slip through an account outside the server's fund says (decision 1910); '' for any other slip. */
export function outsideFundLine(slip: SlipPayload): string {
  if (!slip.outsideFund) return '';
  const account = slip.account ? `${slip.bookie}/${slip.account}` : slip.bookie;
  return `Outside the fund: ${account} is not one of the fund's accounts, so this bet is not the fund's (its NAV does not count it) and its stake is sized without the fund's bank.`;
}

/** The route lines, the account warning and the outside-the-fund line a slip carries, one per line. */
function slipNotes(slip: SlipPayload): string {
  return [routeText(slip.route), slip.accountWarning ? `⚠️ ${slip.accountWarning}` : '', outsideFundLine(slip)]
    .filter(Boolean)
    .join('\n');
}

/** A multi or stack slip at a book that takes several multis in one call, with room for one more (decision 2010). */
const stacks = (slip: SlipPayload): boolean =>
  STACKING_BOOKS.includes(slip.bookie) &&
  ((slip.kind === 'multi' && slip.multi !== undefined) ||
    (slip.kind === 'stack' && (slip.stack?.length ?? 0) < MAX_STACK));

/** The confirmation: what will be placed, at which live price, and the two buttons. */
export function slipView(input: { slip: SlipPayload; slipId: string; userId: string; expiresAt: number }): MessageView {
  const { slip } = input;
  const expires = Math.floor(input.expiresAt / 1000);
  return fitView({
    content: `<@${input.userId}>, confirm your bet (expires <t:${expires}:R>).`,
    embeds: [
      {
        title: 'Bet slip',
        ...(slip.route || slip.accountWarning || slip.outsideFund
          ? { description: clip(slipNotes(slip), LIMITS.embedDescription) }
          : {}),
        color: COLOUR.pending,
        fields: slipFields(slip, slip.shownOdds, sessionLabel(slip)),
        footer: { text: 'Only the person who made this slip can confirm it.' },
      },
    ],
    components: [
      row(
        button(encodeCustomId('slip', 'confirm', input.slipId), 'Confirm', ButtonStyle.Success),
        button(encodeCustomId('slip', 'cancel', input.slipId), 'Cancel', ButtonStyle.Danger),
        ...(stacks(slip)
          ? [
              button(
                encodeCustomId('slip', 'stack', input.slipId),
                'Add another multi on this race',
                ButtonStyle.Secondary,
              ),
            ]
          : []),
      ),
    ],
  });
}

export function submittedView(slip: SlipPayload, odds: number, correlationId: string): MessageView {
  return fitView({
    content: '',
    embeds: [
      {
        title: 'Bet submitted',
        description: 'Waiting for the bookmaker… this message is updated with the result.',
        color: COLOUR.pending,
        fields: slipFields(slip, odds, sessionLabel(slip)),
        footer: { text: clip(`For support: job ${correlationId}`, LIMITS.footer) },
      },
    ],
    components: [],
  });
}

export interface ClosedSlipOptions {
  /**
   * The price moved past what the slip allows: offer "Bet again at <new price>", a button that builds a fresh
   * slip for the same selection and stake at the live price (to be confirmed again). `slipId` is the closed slip.
   */
  priceMoved?: { slipId: string; live: number };
}

export function closedSlipView(
  slip: SlipPayload,
  title: string,
  reason: string,
  opts: ClosedSlipOptions = {},
): MessageView {
  const moved = opts.priceMoved;
  return fitView({
    content: '',
    embeds: [
      {
        title,
        description: clip(reason, LIMITS.embedDescription),
        color: COLOUR.refused,
        fields: slipFields(slip, slip.shownOdds, sessionLabel(slip)),
      },
    ],
    components: moved
      ? [
          row(
            button(
              encodeCustomId('slip', 'reprice', moved.slipId),
              `Bet again at ${formatOdds(moved.live)}`,
              ButtonStyle.Primary,
            ),
          ),
        ]
      : [],
  });
}

/**
 * The bet result, from whichever arrived first (webhook or poll), in either of the spec's shapes (read by the
 * library's betOutcomeOf); the potential return is stake × odds.
 */
export function receiptView(slip: SlipPayload, result: unknown): MessageView {
  const outcome = betOutcomeOf(result);
  const odds = outcome.odds ?? slip.shownOdds;
  const stakeCents = typeof outcome.stake === 'number' ? centsFromDollars(outcome.stake) : slip.stakeCents;
  if (!outcome.placed) {
    const error = outcome.message ?? 'the bookmaker refused the bet';
    return fitView({
      content: '',
      embeds: [
        {
          title: 'Bet not placed',
          description: clip(`Refused: ${error}. Nothing was staked. Check the card with /markets and try again.`, 4000),
          color: COLOUR.refused,
          fields: slipFields(slip, odds, sessionLabel(slip)),
        },
      ],
      components: [],
    });
  }
  const betId = outcome.betId;
  const ret = potentialReturnCents(stakeCents, odds);
  return fitView({
    content: '',
    embeds: [
      {
        title: 'Bet placed ✅',
        color: COLOUR.ok,
        fields: [
          { name: 'Bet id', value: clip(betId, LIMITS.fieldValue), inline: true },
          { name: 'Odds', value: formatOdds(odds), inline: true },
          { name: 'Stake', value: formatMoney(stakeCents), inline: true },
          { name: 'Potential return', value: formatMoney(ret), inline: true },
          { name: 'Selection', value: clip(`${slip.selectionLabel} — ${slip.marketLabel}`, LIMITS.fieldValue) },
          { name: 'Event', value: clip(`${slip.eventName} · ${slip.bookie}`, LIMITS.fieldValue) },
          ...(slip.multi
            ? [{ name: 'Fair price', value: clip(multiFairText(slip.multi, odds, true), LIMITS.fieldValue) }]
            : []),
          ...whoAndWhen(slip),
          ...(slip.approvedBy?.length
            ? [
                {
                  name: 'Approved by',
                  value: clip(slip.approvedBy.map((id) => `<@${id}>`).join(', '), LIMITS.fieldValue),
                },
              ]
            : []),
        ],
      },
    ],
    components: [],
  });
}

export function jobLostView(slip: SlipPayload, status: string): MessageView {
  return fitView({
    content: '',
    embeds: [
      {
        title: 'Bet result unknown',
        description: `The gateway reported the job as "${status}" before a result came back. It was not resubmitted: check /jobs and the book's history (/balance) before betting again.`,
        color: COLOUR.muted,
        fields: slipFields(slip, slip.shownOdds, sessionLabel(slip)),
      },
    ],
    components: [],
  });
}
