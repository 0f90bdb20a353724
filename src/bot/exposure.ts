import type { APIEmbedField } from 'discord.js';
import { formatMoney } from './odds.js';
import { type BetRecord, EXPOSED, HOLDING } from './repos/bet-records.js';
import { exposureCaps, type GuildSettings } from './settings.js';
import { COLOUR } from './views/colours.js';
import { clip, fitView, LIMITS, type MessageView } from './views/limits.js';

/** One line of /exposure: what is held or at risk in a scope, and the room its cap leaves. */
export interface ExposureLine {
  label: string;
  cents: number;
  capCents: number | undefined;
}

export interface ExposureReport {
  /** The event asked about (epk and name), or undefined for the whole desk. */
  event: { epk: string; name: string } | undefined;
  totalOpenCents: number;
  events: ExposureLine[];
  markets: ExposureLine[];
  members: ExposureLine[];
  accounts: ExposureLine[];
  syndicateDay: ExposureLine;
}

function sumBy(records: BetRecord[], key: (r: BetRecord) => string, label: (r: BetRecord) => string) {
  const out = new Map<string, { label: string; cents: number }>();
  for (const r of records) {
    const k = key(r);
    const row = out.get(k) ?? { label: label(r), cents: 0 };
    row.cents += r.stakeCents;
    out.set(k, row);
  }
  return [...out.values()].sort((a, b) => b.cents - a.cents || a.label.localeCompare(b.label));
}

/**
 * The figures of /exposure from the bet records: open stakes (held, in flight, placed and unsettled) per event
 * and market; each member's and account's stake today against the day caps. The caps are the ones Confirm
 * checks in its claim, so headroom here is the room a Confirm would find.
 */
export function exposureReport(input: {
  records: BetRecord[];
  day: string;
  settings: GuildSettings;
  memberDayCents: number;
  epk?: string;
}): ExposureReport {
  const caps = exposureCaps(input.settings);
  const open = input.records.filter(
    (r) => EXPOSED.includes(r.state) && (input.epk === undefined || r.payload.epk === input.epk),
  );
  const today = input.records.filter(
    (r) => HOLDING.includes(r.state) && r.day === input.day && (input.epk === undefined || r.payload.epk === input.epk),
  );
  const line = (cap: number | undefined) => (x: { label: string; cents: number }) => ({ ...x, capCents: cap });
  const name = open.find((r) => r.payload.epk === input.epk)?.payload.eventName ?? input.epk;
  const syndicateToday = input.records.filter((r) => HOLDING.includes(r.state) && r.day === input.day);
  return {
    event: input.epk === undefined ? undefined : { epk: input.epk, name: name ?? input.epk },
    totalOpenCents: open.reduce((a, r) => a + r.stakeCents, 0),
    events: sumBy(
      open,
      (r) => r.payload.epk,
      (r) => r.payload.eventName,
    ).map(line(caps.perEventCents)),
    markets: sumBy(
      open,
      (r) => `${r.payload.epk}\u0000${r.payload.marketKey}`,
      (r) => (input.epk === undefined ? `${r.payload.eventName} · ${r.payload.marketLabel}` : r.payload.marketLabel),
    ).map(line(caps.perMarketCents)),
    members: sumBy(
      today,
      (r) => r.userId,
      (r) => `<@${r.userId}>`,
    ).map(line(input.memberDayCents)),
    accounts: sumBy(
      today,
      (r) => r.sessionId,
      (r) => `${r.bookie} · ${r.sessionId}`,
    ).map(line(caps.perSessionDayCents)),
    syndicateDay: {
      label: 'The syndicate today',
      cents: syndicateToday.reduce((a, r) => a + r.stakeCents, 0),
      capCents: caps.perSyndicateDayCents,
    },
  };
}

const MAX_LINES = 12;

function lines(rows: ExposureLine[]): string {
  if (rows.length === 0) return 'nothing';
  const shown = rows.slice(0, MAX_LINES).map((r) => {
    const room =
      r.capCents === undefined
        ? 'no cap'
        : `room ${formatMoney(Math.max(0, r.capCents - r.cents) / 100)} of ${formatMoney(r.capCents / 100)}`;
    return `${r.label}: **${formatMoney(r.cents / 100)}** · ${room}`;
  });
  if (rows.length > MAX_LINES) shown.push(`… and ${rows.length - MAX_LINES} more`);
  return shown.join('\n');
}

const field = (name: string, value: string): APIEmbedField => ({
  name: clip(name, LIMITS.fieldName),
  value: clip(value, LIMITS.fieldValue),
});

export function exposureView(r: ExposureReport, day: string): MessageView {
  const scope = r.event ? `on ${r.event.name}` : 'across the desk';
  return fitView({
    embeds: [
      {
        title: `Exposure ${scope}`,
        description: `Open stake ${scope}: **${formatMoney(r.totalOpenCents / 100)}** (held, in flight and placed bets not yet settled). Members and accounts: stake on ${day}${r.event ? ' on this event' : ''}.`,
        color: COLOUR.info,
        fields: [
          ...(r.event ? [] : [field('By event (open)', lines(r.events))]),
          field('By market (open)', lines(r.markets)),
          field(`By member (${day})`, lines(r.members)),
          field(`By account (${day})`, lines(r.accounts)),
          field('Syndicate (today)', lines([r.syndicateDay])),
        ],
      },
    ],
    components: [],
  });
}
