// market_ref: an opaque token naming one selection of one book's card for one event.
import { hashString } from './prng.js';

export interface MarketRefParts {
  bookie: string;
  epk: string;
  market: string;
  selection: string;
}

function check(p: MarketRefParts): string {
  return hashString(`mr|${p.bookie}|${p.epk}|${p.market}|${p.selection}`).toString(36);
}

export function encodeMarketRef(p: MarketRefParts): string {
  return Buffer.from(JSON.stringify([1, p.bookie, p.epk, p.market, p.selection, check(p)])).toString('base64url');
}

/** The parts of a token this service issued, or null for anything else (edited, truncated, foreign). */
export function decodeMarketRef(token: string): MarketRefParts | null {
  try {
    const arr = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(arr) || arr.length !== 6 || arr[0] !== 1) return null;
    const [, bookie, epk, market, selection, sum] = arr;
    if (![bookie, epk, market, selection].every((x) => typeof x === 'string')) return null;
    const parts = { bookie, epk, market, selection } as MarketRefParts;
    return check(parts) === sum ? parts : null;
  } catch {
    return null;
  }
}
