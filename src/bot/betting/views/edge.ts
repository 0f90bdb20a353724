import { type MarginMethod, METHOD_LABEL } from '../../model/fair-price.js';
import { formatMoney } from '../../model/money.js';
import { formatOdds } from '../../model/odds.js';
import type { SlipEdge } from '../../model/slip-rules.js';

/** "+2.4%", "-1.3%", "+0.0%": an edge as a signed percentage with one decimal. */
export function formatEdge(edge: number): string {
  const pct = Math.round(edge * 1000) / 10;
  return `${pct < 0 ? '-' : '+'}${Math.abs(pct).toFixed(1)}%`;
}

/** "Fair 2.05 (no-vig multiplicative, 3 books) · edge +2.4%", or the plain "no complete market" line. */
export function fairLine(edge: SlipEdge): string {
  if (edge.fairOdds === undefined || edge.edge === undefined) return noCompleteMarket(edge.method);
  return `${fairHead(edge.method, edge.fairOdds, edge.books)} · edge ${formatEdge(edge.edge)}`;
}

/** "Fair 2.05 (no-vig multiplicative, 3 books)". */
export function fairHead(method: MarginMethod, fairOdds: number, books: number): string {
  return `Fair ${formatOdds(fairOdds)} (${METHOD_LABEL[method]}, ${books} book${books === 1 ? '' : 's'})`;
}

export const noCompleteMarket = (method: MarginMethod) =>
  `No complete market at any book: no fair price (${METHOD_LABEL[method]}).`;

/** "$61.00 (0.25 Kelly of the $10,000.00 bank)"; undefined with no bank or no fair price. */
export function suggestedLine(edge: SlipEdge, bankCents: number | undefined): string | undefined {
  if (edge.suggestedCents === undefined || bankCents === undefined || edge.fairOdds === undefined) return undefined;
  const why = edge.suggestedCents === 0 && (edge.edge ?? 0) <= 0 ? ', no edge' : '';
  return `${formatMoney(edge.suggestedCents)} (${edge.kellyFraction ?? 0.25} Kelly of the ${formatMoney(bankCents)} bank${why})`;
}

/**
 * The slip's fair-price and suggested-stake fields, when the slip carries them; the edge at `odds`, the price the
 * message shows (a re-priced proposal's, a receipt's), from the fair probability kept when the slip was made.
 */
export function edgeFields(slip: { edge?: SlipEdge; capBankCents?: number }, odds?: number) {
  if (!slip.edge) return [];
  const p = slip.edge.fairProbability;
  const edge = odds !== undefined && p !== undefined ? { ...slip.edge, edge: p * odds - 1 } : slip.edge;
  const suggested = suggestedLine(slip.edge, slip.capBankCents);
  return [
    { name: 'Fair price', value: fairLine(edge) },
    ...(suggested ? [{ name: 'Suggested stake', value: suggested, inline: true }] : []),
  ];
}
