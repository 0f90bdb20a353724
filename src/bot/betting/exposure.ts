import type { SlipPayload } from '../model/slip-rules.js';
import { exposureCaps, type GuildSettings } from '../settings/index.js';
import { type BetRecord, EXPOSED, HOLDING } from './bet-records.js';
import type { ExposureReport } from './model/exposure.js';
import type { Proposal } from './proposals.js';

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
  const out = new Map<string, { key: string; label: string; cents: number }>();
  for (const r of stakes) {
    const k = key(r);
    const row = out.get(k) ?? { key: k, label: label(r), cents: 0 };
    row.cents += r.stakeCents;
    out.set(k, row);
  }
  return [...out.values()].sort((a, b) => b.cents - a.cents || a.label.localeCompare(b.label));
}

const eventKey = (r: Stake) => r.epk;
const marketKey = (r: Stake) => `${r.epk}\u0000${r.marketKey}`;
const memberKey = (r: Stake) => r.userId;
const accountKey = (r: Stake) => r.sessionId;

/**
 * The figures of /exposure: open stakes (held, in flight, placed and unsettled, and open proposals) per event
 * and market; each member's and account's stake today against the day caps. These are the sums Confirm's
 * claim checks, so the room shown is the room a Confirm would find.
 *
 * One computation for the whole desk and for one event: with `epk`, the desk's lines are narrowed to that event,
 * its markets, and the members and accounts with stake on it, each still with its whole day's stake and room
 * (the day caps count every event), so the two views always agree.
 */
export function exposureReport(input: {
  stakes: Stake[];
  settings: GuildSettings;
  memberDayCents: number;
  epk?: string;
  /** The bank share caps are worked out from (null or absent: dollar caps only). */
  bankCents?: number | null;
  /** Account user names by session id, as members know the accounts (a session not listed: its id). */
  accountNames?: Readonly<Record<string, string>>;
}): ExposureReport {
  const caps = exposureCaps(input.settings, input.bankCents);
  const open = input.stakes.filter((r) => r.open);
  const today = input.stakes.filter((r) => r.today);
  const onEvent = input.stakes.filter((r) => r.epk === input.epk);
  const keep = (key: (r: Stake) => string) => {
    const keys = new Set(onEvent.filter((r) => r.open || r.today).map(key));
    return (x: { key: string }) => input.epk === undefined || keys.has(x.key);
  };
  const line = (cap: number | undefined) => (x: { label: string; cents: number }) => ({
    label: x.label,
    cents: x.cents,
    capCents: cap,
  });
  const name = onEvent.find((r) => r.open)?.eventName ?? onEvent[0]?.eventName ?? input.epk;
  const scoped = input.epk === undefined ? open : open.filter((r) => r.epk === input.epk);
  return {
    event: input.epk === undefined ? undefined : { epk: input.epk, name: name ?? input.epk },
    totalOpenCents: scoped.reduce((a, r) => a + r.stakeCents, 0),
    events: sumBy(open, eventKey, (r) => r.eventName)
      .filter(keep(eventKey))
      .map(line(caps.perEventCents)),
    markets: sumBy(open, marketKey, (r) =>
      input.epk === undefined ? `${r.eventName} · ${r.marketLabel}` : r.marketLabel,
    )
      .filter(keep(marketKey))
      .map(line(caps.perMarketCents)),
    members: sumBy(today, memberKey, (r) => `<@${r.userId}>`)
      .filter(keep(memberKey))
      .map(line(input.memberDayCents)),
    accounts: sumBy(today, accountKey, (r) => `${r.bookie} · ${input.accountNames?.[r.sessionId] || r.sessionId}`)
      .filter(keep(accountKey))
      .map(line(caps.perSessionDayCents)),
    syndicateDay: {
      label: 'The syndicate today',
      cents: today.reduce((a, r) => a + r.stakeCents, 0),
      capCents: caps.perSyndicateDayCents,
    },
  };
}
