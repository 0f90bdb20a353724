import type { GwTransaction } from '../gateway-port.js';
import { formatMoney, formatOdds } from '../odds.js';
import { COLOUR } from './colours.js';
import { clip, fitView, LIMITS, type MessageView } from './limits.js';

/** A plain ephemeral answer: an error that says what to do, or a short confirmation. */
export function noticeView(text: string, kind: 'error' | 'ok' | 'info' = 'error'): MessageView {
  const color = kind === 'error' ? COLOUR.refused : kind === 'ok' ? COLOUR.ok : COLOUR.info;
  return { embeds: [{ description: clip(text, LIMITS.embedDescription), color }], components: [] };
}

const OUTCOME: Record<string, string> = { won: 'Won 🎉', lost: 'Lost', void: 'Void', cashed_out: 'Cashed out' };

export function settlementView(input: {
  tx: GwTransaction;
  userId: string | null;
  detail: Record<string, unknown>;
}): MessageView {
  const { tx } = input;
  const pnl = tx.pnl ?? 0;
  const sel = tx.selections?.[0];
  const what = String(input.detail.selectionLabel ?? sel?.selection ?? 'selection');
  const event = String(input.detail.eventName ?? sel?.event ?? '');
  return fitView({
    content: input.userId ? `<@${input.userId}>` : '',
    embeds: [
      {
        title: clip(`${OUTCOME[tx.status] ?? tx.status}: ${what}`, LIMITS.embedTitle),
        description: clip(event, LIMITS.embedDescription) || undefined,
        color: tx.status === 'won' ? COLOUR.ok : tx.status === 'lost' ? COLOUR.refused : COLOUR.muted,
        fields: [
          { name: 'Bet id', value: clip(tx.id, LIMITS.fieldValue), inline: true },
          { name: 'Stake', value: formatMoney(tx.stake ?? 0), inline: true },
          { name: 'Odds', value: tx.odds === null || tx.odds === undefined ? '–' : formatOdds(tx.odds), inline: true },
          { name: 'P&L', value: `${pnl > 0 ? '+' : ''}${formatMoney(pnl)}`, inline: true },
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
          `The desk placed bet ${bet.betId ?? '?'} (${formatMoney(bet.stakeCents / 100)} on ${bet.payload.eventName}, <t:${Math.floor(bet.createdAt / 1000)}:f>) but the book's history for session ${bet.sessionId} no longer lists it, so its settlement cannot be announced. Check it with the book; the desk stops looking for it.`,
          LIMITS.embedDescription,
        ),
        color: COLOUR.muted,
      },
    ],
    components: [],
  });
}
