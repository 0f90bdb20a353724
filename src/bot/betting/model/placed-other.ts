/**
 * Whether the bet a result reports as placed is the one the slip showed (issue 36). A market_ref names one row of
 * a card; a gateway that placed another row (the other side of a handicap, a namesake) must never pass silently.
 * Pure: the result's facts come from the library's placedSelectionOf.
 */
import type { PlacedSelection } from '../../../gateway/index.js';
import type { SlipPayload } from '../../model/slip-rules.js';

/** The start of a bet record's note when the book placed another selection than the slip's. */
export const PLACED_OTHER = 'placed_other';

/** Case, spacing and the typographic minus do not make two names differ. */
const plain = (s: string) =>
  s
    .normalize('NFKC')
    .replace(/[\u2212\u2012\u2013]/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

const lineText = (line: number | null | undefined) =>
  typeof line === 'number' ? ` (line ${line > 0 ? '+' : ''}${line})` : '';

/**
 * What differs between the slip and the placed bet, as a sentence, or null when nothing the result reports differs.
 * Only sports slips by market_ref are compared (racing and promo results name their runner or card otherwise); a
 * fact the result does not carry is not compared.
 */
export function placedOther(slip: SlipPayload, placed: PlacedSelection): string | null {
  if (slip.racing || slip.promo || slip.multi) return null;
  const names = [slip.selectionName, slip.selectionLabel].filter((x): x is string => typeof x === 'string');
  const otherName = placed.selection !== undefined && !names.some((n) => plain(n) === plain(placed.selection ?? ''));
  const otherLine =
    typeof placed.line === 'number' && typeof slip.line === 'number' && Math.abs(placed.line - slip.line) > 1e-9;
  const otherMarket = placed.market !== undefined && placed.market !== slip.marketKey;
  if (!otherName && !otherLine && !otherMarket) return null;
  const shown = `'${slip.selectionName ?? slip.selectionLabel}'${lineText(slip.line)} in ${slip.marketKey}`;
  const took = `'${placed.selection ?? slip.selectionName ?? slip.selectionLabel}'${lineText(placed.line)} in ${placed.market ?? slip.marketKey}`;
  return `the book placed ${took}, not the slip's ${shown}`;
}

export const placedOtherNote = (what: string) => `${PLACED_OTHER}: ${what}`;

/** The mismatch a placed record's note names, or undefined. */
export function placedOtherOf(note: string | null | undefined): string | undefined {
  return note?.startsWith(`${PLACED_OTHER}: `) ? note.slice(PLACED_OTHER.length + 2) : undefined;
}
