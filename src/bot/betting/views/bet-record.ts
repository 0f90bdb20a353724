import { COLOUR } from '../../model/colours.js';
import { fitView, type MessageView } from '../../model/limits.js';
import type { BetRecord } from '../bet-records.js';
import { RANK } from '../model/edit-rank.js';
import { placedOtherOf } from '../model/placed-other.js';
import { closedSlipView, receiptView, submittedView } from './slip.js';

/** The slip message for each state of a bet record, with the outbox rank of that stage. */
export function recordView(record: BetRecord): { view: MessageView; rank: number } | undefined {
  const slip = record.payload;
  const odds = record.odds ?? slip.shownOdds;
  switch (record.state) {
    case 'submitted':
      return { view: submittedView(slip, odds, record.correlationId ?? record.placementId), rank: RANK.submitted };
    case 'unknown': {
      const base = closedSlipView(
        slip,
        'Bet result unknown',
        'The gateway did not confirm this bet, so it may or may not have been placed. It was NOT resent. ' +
          "The desk is checking the book's history and will update this message; do not bet it again meanwhile.",
      );
      return { view: recolour(base, COLOUR.muted), rank: RANK.unknown };
    }
    case 'placed':
    case 'settled': {
      // The stake the record holds (less than the slip asked when the book took less).
      const view = receiptView(
        { ...slip, stakeCents: record.stakeCents },
        { success: true, bet_id: record.betId, odds: record.odds ?? slip.shownOdds },
      );
      const other = placedOtherOf(record.note);
      return { view: other ? flagPlacedOther(view, other) : view, rank: RANK.final };
    }
    case 'refused':
      return {
        view: receiptView(slip, { success: false, error: record.note ?? 'the bookmaker refused the bet' }),
        rank: RANK.final,
      };
    case 'not_sent':
      return {
        view: closedSlipView(
          slip,
          'Bet not placed',
          `The bet could not be sent (${record.note ?? 'the gateway refused it'}). Nothing was placed and nothing is held: make a new slip with /bet.`,
        ),
        rank: RANK.final,
      };
    case 'not_placed':
      return {
        view: closedSlipView(
          slip,
          'Bet not placed',
          "The book's history shows no such bet after the safe window, so nothing was placed and the stake is released. Make a new slip with /bet if you still want it.",
        ),
        rank: RANK.final,
      };
    default:
      return undefined;
  }
}

function recolour(view: MessageView, color: number): MessageView {
  return fitView({ ...view, embeds: view.embeds.map((e) => ({ ...e, color })) });
}

/** One line for a member asking about a slip that was already confirmed. */
export function recordStateText(record: BetRecord | undefined): string {
  if (!record) return 'This slip was already confirmed or cancelled.';
  switch (record.state) {
    case 'sending':
    case 'submitted':
      return 'This slip was already confirmed: the bet is with the bookmaker, and its result is edited into the slip.';
    case 'unknown':
      return 'This slip was already confirmed; whether the book took the bet is being checked against its history. Do not bet it again meanwhile.';
    case 'placed':
    case 'settled':
    case 'missing':
      return `This slip was already confirmed and placed (bet ${record.betId ?? '?'}).`;
    case 'refused':
      return 'This slip was already confirmed, and the bookmaker refused it. Nothing was staked.';
    case 'not_sent':
    case 'not_placed':
      return 'This slip was already confirmed, and nothing was placed. Make a new slip with /bet.';
  }
}

/** A receipt whose bet the book placed on another selection than the slip's: said in its title and first field. */
function flagPlacedOther(view: MessageView, other: string): MessageView {
  const [first, ...rest] = view.embeds ?? [];
  if (!first) return view;
  return fitView({
    ...view,
    embeds: [
      {
        ...first,
        title: 'Bet placed ⚠️ not as the slip showed',
        color: COLOUR.refused,
        fields: [{ name: '⚠️ Placed selection differs', value: other.slice(0, 1000) }, ...(first.fields ?? [])],
      },
      ...rest,
    ],
  });
}

/** The loud notice of a bet placed on another selection than its slip showed (`other` says how), once per record. */
export function placedOtherView(record: BetRecord, other: string): MessageView {
  return fitView({
    content: `<@${record.userId}> ⚠️ Your bet ${record.betId ?? ''} was placed, but not as your slip showed: ${other}. It is recorded in the ledger as placed that way; check it with the book before betting again.`,
    embeds: [
      {
        title: '⚠️ Placed selection differs from the slip',
        description: `Slip: ${record.payload.eventName} · ${record.payload.bookie}. ${other}.`,
        color: COLOUR.refused,
      },
    ],
    components: [],
  });
}
