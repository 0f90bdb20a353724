import { ButtonStyle } from 'discord.js';
import { formatEdge } from '../../betting/index.js';
import { stakeFormTitle } from '../../catalog/index.js';
import { button, linkButton, row } from '../../discord/components.js';
import { encodeCustomId } from '../../discord/custom-id.js';
import { startsText } from '../../discord/when.js';
import { COLOUR } from '../../model/colours.js';
import { leagueName } from '../../model/leagues.js';

export type { AlertFacts } from '../model/watch-rules.js';

import { clip, LIMITS, type MessageView } from '../../model/limits.js';
import { formatOdds } from '../../model/odds.js';
import type { AlertFacts, WatchRule } from '../model/watch-rules.js';
import type { AlertPayload, Watch } from '../watches-repo.js';

/** A Discord jump link to a server's channel (or to the server, which opens its last-read channel). */
export const jumpLink = (guildId: string, channelId: string | null): string =>
  `https://discord.com/channels/${guildId}${channelId ? `/${channelId}` : ''}`;

/** The /bet that makes an alert's bet, up to the book: the event, market and selection as members read them. */
const betCommand = (a: Pick<AlertFacts, 'eventName' | 'marketLabel' | 'selectionLabel'>): string =>
  `/bet event: ${a.eventName} · market: ${a.marketLabel} · selection: ${a.selectionLabel}`;

/**
 * The /bet a member runs in the server for an alert sent by DM: the same gate, caps and approvals as any bet. A
 * book the desk heard refuse the event's sport is not named (that /bet would be refused): with no bookie, /bet goes
 * to the best book that takes it.
 */
export function dmBetLine(
  a: Pick<AlertFacts, 'eventName' | 'marketLabel' | 'selectionLabel' | 'bookie' | 'now' | 'bookRefusesSport'>,
): string {
  const where = a.bookRefusesSport
    ? ` (with no bookie, as ${a.bookie} takes no bets on this sport: /bet goes to the best book that does)`
    : ` · bookie: ${a.bookie} · min_odds: ${formatOdds(a.now)}`;
  return (
    `Bet in the server: ${betCommand(a)}${where} (a DM has no Bet button: the server's bet role, caps and ` +
    'approvals apply there).'
  );
}

/** Why an alert has no way to bet at its book, and the /bet that bets it elsewhere. */
export function noBetLine(a: Pick<AlertFacts, 'eventName' | 'marketLabel' | 'selectionLabel' | 'bookie'>): string {
  return (
    `No Bet button: ${a.bookie} shows this price but takes no bet on it from the desk now. ` +
    `${betCommand(a)} (no bookie) bets it at the best book that takes it.`
  );
}

/** The alert's Bet field: a DM's /bet to run in the server, or why its book cannot be bet at; none otherwise. */
function betField(a: AlertFacts) {
  const value = !a.bettable ? noBetLine(a) : a.dm ? dmBetLine(a) : undefined;
  return value ? [{ name: 'Bet', value: clip(value, LIMITS.fieldValue), inline: false }] : [];
}

const TITLE: Record<WatchRule['kind'], string> = {
  price: 'Price alert',
  value: 'Value alert',
  moves: 'Line move',
  league: 'Value alert',
};

const dmLinkLabel = (alertsChannelId: string | null) =>
  alertsChannelId ? "Open the server's alerts channel" : 'Open the server';

/** The alert: its facts, and a Bet button that opens an ordinary slip at that book and price. */
export function alertView(a: AlertFacts): MessageView {
  const starts = a.startsAt === null ? undefined : startsText(new Date(a.startsAt).toISOString());
  const fields = [
    { name: 'Selection', value: clip(`${a.selectionLabel} · ${a.marketLabel}`, LIMITS.fieldValue), inline: false },
    { name: 'Book', value: a.bookie, inline: true },
    {
      name: 'Price',
      value: a.before === null ? formatOdds(a.now) : `${formatOdds(a.before)} → ${formatOdds(a.now)}`,
      inline: true,
    },
    {
      name: 'Fair price',
      value:
        a.fairOdds === null || a.edge === null
          ? 'no complete market on the cards read'
          : `${formatOdds(a.fairOdds)} · edge ${formatEdge(a.edge)}`,
      inline: true,
    },
    ...(starts ? [{ name: 'Starts', value: starts, inline: false }] : []),
    ...(a.books && a.books.length > 0
      ? [{ name: 'Books', value: clip(a.books.join('\n'), LIMITS.fieldValue), inline: false }]
      : []),
    ...betField(a),
  ];
  return {
    ...(a.userId && !a.dm ? { content: `<@${a.userId}>` } : {}),
    embeds: [
      {
        title: clip(`${TITLE[a.kind]}: ${a.headline}`, LIMITS.embedTitle),
        description: clip(a.eventName, LIMITS.embedDescription),
        color: a.kind === 'moves' ? COLOUR.pending : COLOUR.info,
        fields,
      },
    ],
    components: a.dm
      ? a.bettable
        ? [row(linkButton(jumpLink(a.dm.guildId, a.dm.alertsChannelId), dmLinkLabel(a.dm.alertsChannelId)))]
        : []
      : a.bettable
        ? [
            row(
              button(
                encodeCustomId('watch', 'bet', a.alertId),
                a.bookRefusesSport
                  ? `Bet at the best book (${a.bookie} takes none)`
                  : `Bet at ${a.bookie} ${formatOdds(a.now)}`,
                ButtonStyle.Success,
              ),
            ),
          ]
        : [],
  };
}

/**
 * An alert's stake form title: the selection and its book, then the price ("Stake: Sacramento Kings at bookie_c @
 * 2.63"), so the form says what it bets on; an alert stored before its selection's name was kept says the book's.
 */
export function alertStakeTitle(p: Pick<AlertPayload, 'bookie' | 'price' | 'selectionLabel'>): string {
  return stakeFormTitle(p.selectionLabel ? `${p.selectionLabel} at ${p.bookie}` : `${p.bookie} alert`, p.price);
}

/** Events named in a summary of folded alerts at most; the rest are counted as other events. */
const FOLDED_TOPICS = 5;

/**
 * The one post for a burst's alerts beyond the channel's cap (decision 1960): how many, on which events, and where
 * to see them all ("12 more alerts on Lakers v Kings: /watch list").
 */
export function alertsFoldedView(counts: readonly { topic: string; n: number }[]): MessageView {
  const total = counts.reduce((sum, c) => sum + c.n, 0);
  const plural = (n: number) => `${n} more alert${n === 1 ? '' : 's'}`;
  const named = counts.slice(0, FOLDED_TOPICS).map((c) => `${c.n} on ${c.topic || 'an event'}`);
  const others = counts.slice(FOLDED_TOPICS);
  if (others.length > 0) {
    named.push(`${others.reduce((sum, c) => sum + c.n, 0)} on ${others.length} other events`);
  }
  const where = counts.length === 1 ? ` on ${counts[0]?.topic || 'an event'}` : ` (${named.join(', ')})`;
  return {
    embeds: [
      {
        title: clip(`${plural(total)}${where}`, LIMITS.embedTitle),
        description: clip(
          `Too many alerts at once for this channel: these were not posted one by one. \`/watch list\` shows every watch and its latest read.`,
          LIMITS.embedDescription,
        ),
        color: COLOUR.info,
      },
    ],
    components: [],
  };
}

/** "price ≥ 3.20 at bookie_b", "edge ≥ 3 % at any book", "moves ≥ 10 % in 15 min, steam on 3 books". */
export function ruleText(w: Pick<Watch, 'rule' | 'bookie'>): string {
  const at = w.bookie ? `at ${w.bookie}` : 'at any book';
  const r = w.rule;
  if (r.kind === 'price') return `price ${r.direction === 'above' ? '≥' : '≤'} ${formatOdds(r.target)} ${at}`;
  if (r.kind === 'value') return `edge ≥ ${r.edgePct} % ${at}`;
  if (r.kind === 'league') {
    return `edge ≥ ${r.edgePct} % at any book, in ${r.leagues.map(leagueName).join(', ')}, starting within ${Math.round(r.horizonMs / 3_600_000)} h`;
  }
  const mins = Math.round(r.windowMs / 60_000);
  return `moves ≥ ${r.movePct} % in ${mins} min${r.steamBooks ? `, steam on ${r.steamBooks} books` : ''}`;
}

/**
 * How fresh a watch is: its cards' oldest read, as "read 40 s ago", "read 12 min ago", "read 5 h ago", "read 2 days
 * ago", or "not read yet"; for a watch whose event has started, that it alerts no more.
 */
export function freshnessText(oldestReadAt: number | null, now: number, startsAt: number | null = null): string {
  if (startsAt !== null && startsAt <= now) return 'its event has started: no more alerts (/watch remove to tidy up)';
  if (oldestReadAt === null) return 'not read yet';
  return `read ${agoText(oldestReadAt, now)}`;
}

/** How long ago, in the largest unit that reads naturally: "40 s ago", "12 min ago", "5 h ago", "2 days ago". */
function agoText(at: number, now: number): string {
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 120) return `${s} s ago`;
  const min = Math.round(s / 60);
  if (min < 120) return `${min} min ago`;
  const h = Math.round(min / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.round(h / 24)} days ago`;
}

/** Whether a watch has alerted: "no alert yet", "alerted once, 5 min ago", "alerted 3 times, last 2 h ago". */
export function alertedText(alerts: { count: number; lastAt: number } | undefined, now: number): string {
  if (!alerts || alerts.count === 0) return 'no alert yet';
  const ago = agoText(alerts.lastAt, now);
  return alerts.count === 1 ? `alerted once, ${ago}` : `alerted ${alerts.count} times, last ${ago}`;
}

/** One row of /watch list: the watch, how fresh its cards are, whether it alerted, whether its event started. */
export interface WatchListRow {
  watch: Watch;
  freshness: string;
  /** alertedText's words; absent: not said. */
  alerted?: string;
  /** Its event has started: listed apart, as a watch that alerts no more. */
  started?: boolean;
}

const watchLine = ({ watch: w, freshness, alerted, started }: WatchListRow): string => {
  // Under "Started" the freshness (that it alerts no more) is the heading's.
  const tail = [ruleText(w), ...(started ? [] : [freshness]), ...(alerted ? [alerted] : [])].join(' · ');
  if (w.rule.kind === 'league') return `\`${w.watchId}\` (server rule) ${tail}`;
  const tag = w.scope === 'server' ? '(server) ' : w.delivery === 'dm' ? '(by DM) ' : '';
  return `\`${w.watchId}\` ${tag}${w.selectionLabel ?? w.market} · ${w.eventName}: ${tail}`;
};

/**
 * /watch list: one line per watch with its id (for remove), its rule, how fresh its cards are and whether it has
 * alerted; watches whose event has started come last, under their own heading (they alert no more).
 */
export function watchListView(watches: readonly WatchListRow[], note?: string): MessageView {
  const live = watches.filter((r) => !r.started).map(watchLine);
  const over = watches.filter((r) => r.started).map(watchLine);
  const lines = [
    ...live,
    ...(over.length > 0
      ? [`${live.length > 0 ? '\n' : ''}**Started, no more alerts** (/watch remove id: tidies them up):`, ...over]
      : []),
  ];
  return {
    embeds: [
      {
        title: watches.length === 0 ? 'No watches' : `Watches (${watches.length})`,
        description: clip(
          [lines.length === 0 ? 'Make one with /watch price, /watch value or /watch moves.' : lines.join('\n'), note]
            .filter(Boolean)
            .join('\n\n'),
          LIMITS.embedDescription,
        ),
        color: COLOUR.info,
      },
    ],
    components: [],
  };
}
