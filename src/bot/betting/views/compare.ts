import { ButtonStyle, ComponentType } from 'discord.js';
import type { BookPrice, SelectionComparison } from '../../catalog/index.js';
import { encodeCustomId } from '../../discord/custom-id.js';
import { COLOUR } from '../../model/colours.js';
import { edgeOf, type FairPrice } from '../../model/fair-price.js';
import { clip, fitView, LIMITS, type MessageView } from '../../model/limits.js';
import { formatOdds } from '../../model/odds.js';
import { fairHead, formatEdge, noCompleteMarket } from './edge.js';

/** " · edge +2.4%" after a price, or '' with no fair price. */
const priceEdge = (fair: FairPrice | undefined, price: number) =>
  fair?.kind === 'fair' ? ` · edge ${formatEdge(edgeOf(fair.probability, price))}` : '';

/** The row's fair price, or the no-complete-market line. */
const fairText = (fair: FairPrice) =>
  fair.kind === 'fair' ? fairHead(fair.method, fair.odds, fair.books.length) : noCompleteMarket(fair.method);

export function compareView(input: {
  eventName: string;
  marketLabel: string;
  rows: SelectionComparison[];
  /** Stored ref of each row's best price, for its "Bet at best" button. */
  betRefs: Map<string, string>;
}): MessageView {
  const buttons = input.rows.flatMap((r) => {
    const ref = input.betRefs.get(r.key);
    if (!ref || !r.best) return [];
    return [
      {
        type: ComponentType.Button as const,
        style: ButtonStyle.Success as const,
        custom_id: encodeCustomId('cmp', 'bet', ref),
        label: clip(`Bet at best: ${r.label} ${formatOdds(r.best.price)} @ ${r.best.bookie}`, LIMITS.buttonLabel),
      },
    ];
  });
  const rows = [];
  for (let i = 0; i < buttons.length && rows.length < LIMITS.actionRows; i += LIMITS.buttonsPerRow) {
    rows.push({ type: ComponentType.ActionRow as const, components: buttons.slice(i, i + LIMITS.buttonsPerRow) });
  }
  return fitView({
    embeds: [
      {
        title: clip(`Compare · ${input.marketLabel}`, LIMITS.embedTitle),
        description: clip(
          `${input.eventName}\nLive prices from a price check at every book; ⭐ marks the best a bet can go to.`,
          LIMITS.embedDescription,
        ),
        color: COLOUR.info,
        fields: input.rows.slice(0, LIMITS.embedFields).map((r) => ({
          name: clip(r.label, LIMITS.fieldName),
          value: clip(
            [
              ...r.books.map((b) => bookLine(b, b === r.best, b.price === null ? '' : priceEdge(r.fair, b.price))),
              ...(r.fair ? [fairText(r.fair)] : []),
            ].join('\n') || '–',
            LIMITS.fieldValue,
          ),
          inline: true,
        })),
      },
    ],
    components: rows,
  });
}

/** One book's line: its price (⭐ when best), with why a bet cannot go there; or why it has no price. */
export function bookLine(b: BookPrice, best: boolean, edge = ''): string {
  if (b.price === null) {
    if (b.why) return `${b.bookie}: ${b.why}`;
    return `${b.bookie}: no live price (${b.error ?? 'the price check returned none for this selection'})`;
  }
  const price = `${b.bookie}: ${formatOdds(b.price)}`;
  if (best) return `⭐ **${price}**${edge}`;
  return b.why ? `${price}${edge} (cannot bet here: ${b.why})` : `${price}${edge}`;
}
