// What no message a member or treasurer sees may hold (issue 32): a raw session UUID, an internal record id
// outside a footer labelled for support, an HTTP path, or an amount of money not formatted as money; nor a minus
// sign other than ASCII '-' (issue 31: formatMoney's, so a formula and an amount beside it show one minus). Session ids
// and the desk's job ids are both UUIDs: any UUID is flagged unless it sits in a footer that starts "For support:".
import type { MessageView } from '../../src/bot/model/limits.js';

/** A text a person reads, and where in the message it is. */
interface Shown {
  where: string;
  text: string;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
/** The desk's own record ids: fund contributions, cash-outs, strikes, withdrawals (fc-, fo-, fs-, fw-, fee-). */
const RECORD_ID = /\b(?:fc|fo|fs|fw|fee)-[0-9a-f]{6,}/i;
const HTTP_PATH = /\b(?:GET|POST|PUT|PATCH|DELETE)\s+\/|\/v3\/|\/api\/[a-z_]/;
/**
 * A dollar amount as money reads: $1,234.56 or $12.50 (or $5: whole dollars in prose). Flags $1600.00 (no
 * grouping), $1.000000 and $1,600.000000 (more than cents), $12.5.
 */
const AMOUNT = /\$\d[\d,]*(?:\.\d+)?(?:\*{0,2} a unit)?/g;
/** A unit price may carry six decimals, as the fund prices units ("$1.086666 a unit"). */
const UNIT_PRICE = /^\$\d{1,3}(?:,\d{3})*\.\d{6}\*{0,2} a unit$/;
const MONEY = /^\$(?:\d{1,3}(?:,\d{3})*)(?:\.\d{2})?$/;
/** The mathematical minus (U+2212): beside formatMoney's '-' a reader would see two kinds of minus. */
const OTHER_MINUS = /\u2212/;
/**
 * A time not said by the one module that says times (model/dates.ts): an ISO instant as the gateway sends it, or
 * the old menus' "11-29 00:30" (a month-day and a clock with no zone of the reader's or the server's).
 */
const RAW_TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d|\b\d\d-\d\d \d\d:\d\d\b/;
/**
 * A code a person does not say: snake_case ("market_ref", "not_offered"), but not a book or account name
 * (bookie_a, alpha_a) nor an option named as typed ("withdrawal_id:"); and raw JSON.
 */
const CODE = /\b[a-z]+(?:_[a-z]+)+\b(?!:)/g;
const NAMES = /^(bookie|alpha)_[a-z]$/;
/** A footer that says it is for support may carry an internal id. */
const SUPPORT_FOOTER = /^For support:/;

function shownTexts(view: MessageView): Shown[] {
  const out: Shown[] = [];
  const push = (where: string, text: unknown) => {
    if (typeof text === 'string' && text) out.push({ where, text });
  };
  push('content', view.content);
  view.embeds.forEach((e, i) => {
    push(`embed ${i} title`, e.title);
    push(`embed ${i} description`, e.description);
    push(`embed ${i} author`, e.author?.name);
    push(`embed ${i} footer`, e.footer?.text);
    for (const f of e.fields ?? []) {
      push(`embed ${i} field name`, f.name);
      push(`embed ${i} field "${f.name}"`, f.value);
    }
  });
  const walk = (c: unknown, where: string) => {
    if (!c || typeof c !== 'object') return;
    const o = c as Record<string, unknown>;
    push(`${where} label`, o.label);
    push(`${where} placeholder`, o.placeholder);
    push(`${where} description`, o.description);
    for (const k of ['components', 'options'] as const) {
      if (Array.isArray(o[k])) for (const [j, x] of (o[k] as unknown[]).entries()) walk(x, `${where}.${k}[${j}]`);
    }
  };
  for (const [i, c] of (view.components ?? []).entries()) walk(c, `component ${i}`);
  return out;
}

/** Every breach of the rules in a view, as "where: what (text)". */
export function hygieneViolations(view: MessageView): string[] {
  const found: string[] = [];
  for (const { where, text } of shownTexts(view)) {
    const support = where.endsWith('footer') && SUPPORT_FOOTER.test(text);
    if (!support && UUID.test(text)) found.push(`${where}: a raw UUID (${text})`);
    if (!support && RECORD_ID.test(text)) found.push(`${where}: an internal record id (${text})`);
    if (HTTP_PATH.test(text)) found.push(`${where}: an HTTP path (${text})`);
    for (const code of (text.match(CODE) ?? []).filter((c) => !NAMES.test(c))) {
      found.push(`${where}: a code, not words (${code}: ${text})`);
    }
    if (text.includes('{"')) found.push(`${where}: raw JSON (${text})`);
    if (RAW_TIME.test(text)) found.push(`${where}: a time not said by model/dates.ts (${text})`);
    if (OTHER_MINUS.test(text)) found.push(`${where}: a minus sign other than ASCII '-' (${text})`);
    for (const amount of text.match(AMOUNT) ?? []) {
      if (UNIT_PRICE.test(amount)) continue;
      if (!MONEY.test(amount.replace(/\*{0,2} a unit$/, '').replace(/[.,]$/, '')))
        found.push(`${where}: an unformatted amount ${amount} (${text})`);
    }
  }
  return found;
}
