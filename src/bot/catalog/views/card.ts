import type { APIEmbedField } from 'discord.js';
import type { MarketCard, MarketRow } from '../../../gateway/index.js';
import { button, pager, row, select } from '../../discord/components.js';
import { encodeCustomId } from '../../discord/custom-id.js';
import { startsText } from '../../discord/when.js';
import { COLOUR } from '../../model/colours.js';
import { clip, fitView, LIMITS, type MessageView } from '../../model/limits.js';
import { bettable, selectionName, sortMarkets } from '../../model/markets.js';
import { formatOdds } from '../../model/odds.js';
import { plural } from '../../model/plural.js';

/** Markets per page: 10 fields keeps a page far under the 6000-character embed budget. */
export const MARKETS_PAGE_SIZE = 10;
const SELECTIONS_IN_SUMMARY = 6;
/** Tiers in members' words: "unmapped" (named by one book only) means nothing to a bettor. */
const TIER_LABEL: Record<string, string> = { popular: 'popular', other: 'other', unmapped: 'this book only' };
export const tierLabel = (tier: string): string => TIER_LABEL[tier] ?? tier;

function selectionText(label: string, odds: number, line?: number | null): string {
  return `${selectionName(label, line)} @ **${formatOdds(odds)}**`;
}

function marketSummary(m: MarketRow): string {
  const sels = bettable(m);
  if (sels.length === 0) return 'nothing bettable now';
  const shown = sels.slice(0, SELECTIONS_IN_SUMMARY).map((s) => selectionText(s.label, s.odds, s.line));
  const more = sels.length > SELECTIONS_IN_SUMMARY ? ` … +${sels.length - SELECTIONS_IN_SUMMARY} more` : '';
  return clip(shown.join(' · ') + more, LIMITS.fieldValue);
}

export interface CardViewInput {
  card: MarketCard;
  eventName: string;
  /** Short key of the stored card reference (epk, bookie, filters) used in custom ids. */
  ref: string;
  page: number;
  /** The event's start (ISO 8601), shown as a Discord timestamp. */
  startTime?: string;
}

/** A book's card: markets by tier, paged, with a select menu to open one market of the page. */
export function cardView(input: CardViewInput): MessageView {
  const { card } = input;
  const title = clip(`${input.eventName} — ${card.bookie}`, LIMITS.embedTitle);
  if (!card.bound) {
    return {
      embeds: [
        {
          title,
          description: `${card.bookie} is not attached to this event yet, so no bet can be routed. Pick another book, or try again in a minute.`,
          color: COLOUR.muted,
        },
      ],
      components: [],
    };
  }
  const markets = sortMarkets(card.markets);
  const pages = Math.max(1, Math.ceil(markets.length / MARKETS_PAGE_SIZE));
  const page = Math.min(Math.max(0, input.page), pages - 1);
  const first = page * MARKETS_PAGE_SIZE;
  const slice = markets.slice(first, first + MARKETS_PAGE_SIZE);
  const fields: APIEmbedField[] = slice.map((m) => ({
    name: `${clip(m.label || m.market, 200)} · ${tierLabel(m.tier)}`,
    value: marketSummary(m),
  }));
  const notes: string[] = [];
  const starts = startsText(input.startTime);
  if (starts) notes.push(`Starts ${starts}`);
  if (markets.length === 0) notes.push('Nothing is placeable by id on this card right now.');
  if (!card.market_ref_betting_enabled) {
    notes.push(
      `⚠️ ${card.bookie} takes no bets from the desk on this event at the moment: its prices are to compare. /bet without bookie: bets at the best book that takes it.`,
    );
  }
  notes.push('Prices are from the last scrape; the bet slip checks the live price.');
  const components = [];
  const openable = slice.map((m, i) => ({ m, index: first + i })).filter((x) => bettable(x.m).length > 0);
  if (openable.length > 0 && card.market_ref_betting_enabled) {
    components.push(
      row(
        select(
          encodeCustomId('card', 'open', input.ref),
          'Open a market to bet…',
          openable.map((x) => ({
            label: x.m.label || x.m.market,
            value: String(x.index),
            description: `${tierLabel(x.m.tier)} · ${plural(bettable(x.m).length, 'selection')}`,
          })),
        ),
      ),
    );
  }
  components.push(...pager((p) => encodeCustomId('card', 'page', input.ref, p), page, pages));
  return fitView({
    embeds: [
      {
        title,
        description: clip(notes.join('\n'), LIMITS.embedDescription),
        color: COLOUR.info,
        fields,
        footer: { text: `Page ${page + 1} of ${pages} · ${plural(markets.length, 'market')}` },
      },
    ],
    components,
  });
}

/** One market: its bettable selections, 25 to a page (Discord's cap per select), and a menu to bet on one. */
/** The book's own name for a market, when it is more than the label in other letter case. */
function bookWording(market: MarketRow): string {
  const raw = market.raw_market_name;
  if (!raw) return ` · ${market.market}`;
  return raw.toLowerCase() === market.label.toLowerCase() ? '' : ` · ${raw}`;
}

export function marketView(input: {
  card: MarketCard;
  eventName: string;
  ref: string;
  marketIndex: number;
  /** Page of selections (25 each) shown in the menu; clamped to the pages there are. */
  selectionPage?: number;
}): MessageView {
  const markets = sortMarkets(input.card.markets);
  const market = markets[input.marketIndex];
  if (market === undefined) {
    return {
      embeds: [
        { title: 'Market not found', description: 'The card changed. Run /markets again.', color: COLOUR.muted },
      ],
      components: [],
    };
  }
  const sels = bettable(market);
  const perPage = LIMITS.selectOptions;
  const pages = Math.max(1, Math.ceil(sels.length / perPage));
  const page = Math.min(Math.max(0, input.selectionPage ?? 0), pages - 1);
  const shown = sels.slice(page * perPage, (page + 1) * perPage);
  const lines = shown.map((s) => selectionText(s.label, s.odds, s.line));
  const description = clip(lines.join('\n') || 'Nothing bettable in this market now.', LIMITS.embedDescription);
  const components = [];
  if (shown.length > 0) {
    components.push(
      row(
        select(
          encodeCustomId('card', 'pick', input.ref, input.marketIndex),
          pages > 1 ? `Bet on a selection (${page + 1}/${pages})…` : 'Bet on a selection…',
          shown.map((s) => ({
            label: selectionName(s.label, s.line),
            value: String(market.selections.indexOf(s)),
            description: `@ ${formatOdds(s.odds)}`,
          })),
        ),
      ),
    );
  }
  components.push(...pager((p) => encodeCustomId('card', 'sels', input.ref, input.marketIndex, p), page, pages));
  components.push(row(button(encodeCustomId('card', 'page', input.ref, 0), '◀ Back to the card')));
  return {
    embeds: [
      {
        title: clip(`${market.label} — ${input.eventName}`, LIMITS.embedTitle),
        description,
        color: COLOUR.info,
        footer: {
          text: clip(
            `${input.card.bookie} · ${tierLabel(market.tier)}${bookWording(market)}${
              pages > 1 ? ` · selections ${page * perPage + 1}–${page * perPage + shown.length} of ${sels.length}` : ''
            }`,
            200,
          ),
        },
      },
    ],
    components,
  };
}

/** The stake form's title (Discord allows 45 characters): the selection and its card price, or a plain title. */
export function stakeFormTitle(selection?: string, odds?: number | null): string {
  if (!selection) return 'Stake for this bet';
  const price = typeof odds === 'number' ? ` @ ${formatOdds(odds)}` : '';
  const room = LIMITS.modalTitle - 'Stake: '.length - price.length;
  const name = selection.length > room ? `${selection.slice(0, Math.max(0, room - 1))}…` : selection;
  return `Stake: ${name}${price}`;
}
