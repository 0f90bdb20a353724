import type { ExposureReport } from '../model/exposure.js';
import type { SlipPayload } from '../model/slip-rules.js';
import { type BetRecord, EXPOSED, HOLDING } from '../repos/bet-records.js';
import { exposureCaps, type GuildSettings } from '../repos/guild-settings.js';
import type { Proposal } from '../repos/proposals.js';

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
  /** The bank share caps are worked out from (null or absent: dollar caps only). */
  bankCents?: number | null;
}): ExposureReport {
  const caps = exposureCaps(input.settings, input.bankCents);
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
