import { COLOUR } from '../../model/colours.js';
import { clip, fitView, LIMITS, type MessageView } from '../../model/limits.js';
import { formatMoney, formatSignedMoney } from '../../model/money.js';
import { formatOdds } from '../../model/odds.js';
import type { Settlement } from '../model/settlement.js';

const OUTCOME: Record<Settlement['status'], string> = {
  won: 'Won 🎉',
  lost: 'Lost',
  void: 'Void',
  cashed_out: 'Cashed out',
  half_won: 'Half won',
  half_lost: 'Half lost',
};

/** The outcome in words; a promo's refund is said as one. */
function outcomeWords(s: Settlement): string {
  return s.refunded ? 'Refunded (money back)' : OUTCOME[s.status];
}

export interface FinalScore {
  home_score?: number | null;
  away_score?: number | null;
}

export function settlementView(input: {
  settlement: Settlement;
  userId: string | null;
  detail: Record<string, unknown>;
  /** The event's final score, when the gateway covers the league. */
  score?: FinalScore | null;
}): MessageView {
  const { settlement: s } = input;
  const sel = s.selection;
  const what = String(input.detail.selectionLabel ?? sel?.selection ?? 'selection');
  const event = String(input.detail.eventName ?? sel?.event ?? '');
  const market = input.detail.marketLabel ?? sel?.market;
  const book = input.detail.bookie;
  const score =
    input.score && (input.score.home_score ?? null) !== null
      ? `${input.score.home_score}–${input.score.away_score ?? '–'}`
      : undefined;
  const context = [
    ...(typeof market === 'string' && market
      ? [{ name: 'Market', value: clip(market, LIMITS.fieldValue), inline: true }]
      : []),
    ...(typeof book === 'string' && book ? [{ name: 'Book', value: clip(book, LIMITS.fieldValue), inline: true }] : []),
    ...(score ? [{ name: 'Final score', value: score, inline: true }] : []),
  ];
  return fitView({
    content: input.userId ? `<@${input.userId}>` : '',
    embeds: [
      {
        // The emoji stands apart from the text (no colon glued on) so clients draw it as an emoji image.
        title: clip(`${outcomeWords(s)} · ${what}`, LIMITS.embedTitle),
        description: clip(event, LIMITS.embedDescription) || undefined,
        color: s.status === 'won' ? COLOUR.ok : s.status === 'lost' ? COLOUR.refused : COLOUR.muted,
        fields: [
          { name: 'Bet id', value: clip(s.betId, LIMITS.fieldValue), inline: true },
          { name: 'Stake', value: formatMoney(s.stakeCents), inline: true },
          { name: 'Odds', value: s.odds === null ? '–' : formatOdds(s.odds), inline: true },
          { name: 'P&L', value: formatSignedMoney(s.pnlCents ?? 0), inline: true },
          { name: 'Returned', value: formatMoney(s.returnedCents), inline: true },
          ...context,
        ],
      },
    ],
    components: [],
  });
}

/** A placed bet the book's history no longer lists: the members should check with the book. */
export function missingBetView(bet: {
  betId: string | null;
  userId: string;
  bookie: string;
  sessionId: string;
  stakeCents: number;
  createdAt: number;
  payload: { selectionLabel: string; eventName: string };
}): MessageView {
  return fitView({
    content: `<@${bet.userId}>`,
    embeds: [
      {
        title: clip(`Bet not found at ${bet.bookie}: ${bet.payload.selectionLabel}`, LIMITS.embedTitle),
        description: clip(
          `The desk placed bet ${bet.betId ?? '?'} (${formatMoney(bet.stakeCents)} on ${bet.payload.eventName}, <t:${Math.floor(bet.createdAt / 1000)}:f>) but the book's history for its session (…${bet.sessionId.slice(-4)}) no longer lists it, so its settlement cannot be announced. Check it with the book; the desk stops looking for it.`,
          LIMITS.embedDescription,
        ),
        color: COLOUR.muted,
      },
    ],
    components: [],
  });
}
