import type { APIEmbedField } from 'discord.js';
import { COLOUR } from '../model/colours.js';
import { clip, fitView, LIMITS, type MessageView } from '../model/limits.js';
import { formatMoney } from '../model/odds.js';
import type { SlipPayload } from '../model/slip-rules.js';
import { type BetRecord, EXPOSED, HOLDING } from '../repos/bet-records.js';
import { exposureCaps, type GuildSettings } from '../repos/guild-settings.js';
import type { Proposal } from '../repos/proposals.js';

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

/** One stake as /exposure counts it: a bet record or an open proposal. */
export interface Stake {
  epk: string;
  eventName: string;
  marketKey: string;
  marketLabel: string;
  userId: string;
  sessionId: string;
  bookie: string;
  stakeCents: number;
  /** Still at risk on its event (held, in flight, placed and unsettled, or proposed). */
  open: boolean;
  /** Counts toward today's day caps. */
  today: boolean;
}

export function stakeOfRecord(r: BetRecord, day: string): Stake {
  return {
    epk: r.payload.epk,
    eventName: r.payload.eventName,
    marketKey: r.payload.marketKey,
    marketLabel: r.payload.marketLabel,
    userId: r.userId,
    sessionId: r.sessionId,
    bookie: r.bookie,
    stakeCents: r.stakeCents,
    open: EXPOSED.includes(r.state),
    today: HOLDING.includes(r.state) && r.day === day,
  };
}

export function stakeOfProposal(p: Proposal, slip: SlipPayload | undefined, day: string): Stake {
  return {
    epk: p.epk,
    eventName: slip?.eventName ?? p.epk,
    marketKey: p.marketKey,
    marketLabel: slip?.marketLabel ?? p.marketKey,
    userId: p.proposerId,
    sessionId: p.sessionId,
    bookie: p.bookie,
    stakeCents: p.stakeCents,
    open: true,
    today: p.day === day,
  };
}

function sumBy(stakes: Stake[], key: (r: Stake) => string, label: (r: Stake) => string) {
  const out = new Map<string, { label: string; cents: number }>();
  for (const r of stakes) {
    const k = key(r);
    const row = out.get(k) ?? { label: label(r), cents: 0 };
    row.cents += r.stakeCents;
    out.set(k, row);
  }
  return [...out.values()].sort((a, b) => b.cents - a.cents || a.label.localeCompare(b.label));
}

/**
 * The figures of /exposure: open stakes (held, in flight, placed and unsettled, and open proposals) per event
 * and market; each member's and account's stake today against the day caps. These are the sums Confirm's
 * claim checks, so the room shown is the room a Confirm would find.
 */
export function exposureReport(input: {
  stakes: Stake[];
  settings: GuildSettings;
  memberDayCents: number;
  epk?: string;
}): ExposureReport {
  const caps = exposureCaps(input.settings);
  const inScope = input.stakes.filter((r) => input.epk === undefined || r.epk === input.epk);
  const open = inScope.filter((r) => r.open);
  const today = inScope.filter((r) => r.today);
  const line = (cap: number | undefined) => (x: { label: string; cents: number }) => ({ ...x, capCents: cap });
  const name = open.find((r) => r.epk === input.epk)?.eventName ?? input.epk;
  const syndicateToday = input.stakes.filter((r) => r.today);
  return {
    event: input.epk === undefined ? undefined : { epk: input.epk, name: name ?? input.epk },
    totalOpenCents: open.reduce((a, r) => a + r.stakeCents, 0),
    events: sumBy(
      open,
      (r) => r.epk,
      (r) => r.eventName,
    ).map(line(caps.perEventCents)),
    markets: sumBy(
      open,
      (r) => `${r.epk}\u0000${r.marketKey}`,
      (r) => (input.epk === undefined ? `${r.eventName} · ${r.marketLabel}` : r.marketLabel),
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
        description: `Open stake ${scope}: **${formatMoney(r.totalOpenCents / 100)}** (bets held, in flight or placed and not yet settled, and open proposals). Members and accounts: stake on ${day}${r.event ? ' on this event' : ''}.`,
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
