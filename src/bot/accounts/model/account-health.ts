// Account health: what the gateway's own answers say about each bookmaker session, and the state it puts the
// session in (docs/decisions/1740-account-health-rules.md). Pure: evidence in, a state with its reasons out.
import { leagueName } from '../../model/leagues.js';
import { centsFromDollars, formatMoney } from '../../model/money.js';

/** What a refusal's text says happened, read from the bookmaker's words (the raw text is kept beside it). */
export type RefusalClass =
  | 'stake_limit'
  | 'price_change'
  | 'market_suspended'
  | 'account_restricted'
  | 'session_inactive'
  | 'not_offered'
  | 'other';

/** One piece of evidence about a session, as the store keeps it. */
export type EvidenceKind =
  | 'accepted' // a bet placed (accepted stake against the stake asked)
  | 'refused' // a bet refused by the book (classified error text)
  | 'soft_miss' // the book does not carry the market
  | 'not_offered' // the book takes no bets on a sport at all (sport: the event's sport group, e.g. basketball)
  | 'send_failed' // place_bet itself was refused before a job (e.g. 403 session not active)
  | 'status' // the session's status as the gateway lists it (active, inactive, launching)
  | 'start' // a start or restart and whether a client received it
  | 'balance'; // a balance read

export interface Evidence {
  sessionId: string;
  bookie: string;
  kind: EvidenceKind;
  at: number;
  /** The bet's league key and market key (bets only). */
  sport?: string | null;
  market?: string | null;
  marketLabel?: string | null;
  askedCents?: number | null;
  acceptedCents?: number | null;
  errorClass?: RefusalClass | null;
  errorText?: string | null;
  /** status: the session status; start: 'delivered' or 'not_delivered'; balance: 'ok' or 'failed'. */
  status?: string | null;
}

export type HealthState = 'healthy' | 'stake-limited' | 'restricted' | 'offline';

export type LimitTrend = 'first' | 'shrinking' | 'steady' | 'growing';

/** The largest stake a session has recently taken on one league and market, once the book has limited it there. */
export interface StakeCap {
  sport: string;
  market: string;
  marketLabel: string;
  capCents: number;
  trend: LimitTrend;
  since: number;
}

export interface SessionHealth {
  sessionId: string;
  bookie: string;
  state: HealthState;
  /** Why, in words a member reads ("took at most $40.00 on NBA head-to-head lately"). */
  reasons: string[];
  caps: StakeCap[];
  /** The largest stake accepted in the window, on any market (null: none). */
  largestAcceptedCents: number | null;
  /** Refused bets over bets answered (placed or refused), as a share; null when there were none. */
  refusalRate7d: number | null;
  refusalRate30d: number | null;
  lastBetAt: number | null;
}

/** The gateway's current view of a session, when the desk has one. */
export interface SessionNow {
  sessionId: string;
  bookie: string;
  /** Listed by the gateway and active. */
  active: boolean;
  /** The gateway's status text (active, inactive, launching), or 'missing' when not listed. */
  status: string;
}

const DAY = 86_400_000;

/** The windows and thresholds of the rules (decision 1740). */
export const HEALTH_RULES = {
  /** Limit evidence older than this no longer limits a session; refusal rate's long window. */
  windowMs: 30 * DAY,
  /** The refusal rate's short window. */
  shortWindowMs: 7 * DAY,
  /** A restriction refusal restricts the session until a bet is accepted after it, or this long passes. */
  restrictionMs: 30 * DAY,
} as const;

const PATTERNS: ReadonlyArray<[RefusalClass, RegExp]> = [
  [
    'account_restricted',
    /restrict|suspended account|account (has been |is )?suspended|account (is )?(closed|locked|disabled)|not permitted to bet/i,
  ],
  ['stake_limit', /max(imum)?[_ ]stake|stake[_ ](limit|above)|limit(ed)? (the )?stake|exceeds? (the )?(max|limit)/i],
  ['session_inactive', /session (is )?not active|session not found|inactive|not running|not logged in|offline/i],
  // The book's offer, not the market's state or the account's: "basketball betting is offered by bookie_a only".
  ['not_offered', /not_offered|not offered|is offered by \S+ only/i],
  ['market_suspended', /suspend|market (is )?closed|no longer (available|bettable)|event (has )?started|in[_ -]play/i],
  ['price_change', /odds_below_target|odds_above_max|price (has )?(changed|moved)|odds (have )?changed/i],
];

/** The class of a refusal's text; `other` when no known words appear. Restriction is read first: it outranks. */
export function classifyRefusal(text: string | null | undefined): RefusalClass {
  const t = text ?? '';
  for (const [cls, re] of PATTERNS) if (re.test(t)) return cls;
  return 'other';
}

/** How long a book's refusal of a sport is believed: after it, a price check there is tried again. */
export const NOT_OFFERED_MS = HEALTH_RULES.shortWindowMs;

/** A sport group key in words ("american_football" → "american football"). */
export function sportWords(sport: string): string {
  return sport.replace(/_/g, ' ').toLowerCase();
}

/**
 * The books that refused a sport lately (a bet or price check answered `not_offered`), each with when: a book
 * refuses a sport as a whole, so every event of that sport there is left out until the refusal is old.
 */
export function booksNotTaking(evidence: readonly Evidence[], sport: string, now: number): Set<string> {
  return new Set(
    evidence
      .filter((e) => e.kind === 'not_offered' && e.sport === sport && now - e.at <= NOT_OFFERED_MS)
      .map((e) => e.bookie),
  );
}

/** Why a book is left out of a sport's bets, for slips and refusals: "takes no basketball bets". */
export function notTakingText(sport: string): string {
  return `takes no ${sportWords(sport)} bets`;
}

/** A dollar amount the book names as its maximum ("The maximum stake for this bet is $20.00."), in cents. */
export function statedMaximumCents(text: string | null | undefined): number | undefined {
  const m = /max(?:imum)?[^$]{0,40}\$\s?([0-9][0-9,]*(?:\.[0-9]{1,2})?)/i.exec(text ?? '');
  if (!m?.[1]) return undefined;
  const cents = centsFromDollars(Number(m[1].replace(/,/g, '')));
  return Number.isFinite(cents) && cents > 0 ? cents : undefined;
}

/** "NFL head-to-head": the league's name and the market as the slip names it. */
export function marketPhrase(sport: string, marketLabel: string): string {
  return `${leagueName(sport)} ${marketLabel.toLowerCase()}`;
}

function isBet(e: Evidence): boolean {
  return e.kind === 'accepted' || e.kind === 'refused';
}

/** An acceptance for less than asked, or a stake-limit refusal: the book limited the stake on that market. */
function isLimitEvidence(e: Evidence): boolean {
  if (e.kind === 'accepted') return e.acceptedCents != null && e.askedCents != null && e.acceptedCents < e.askedCents;
  return e.kind === 'refused' && e.errorClass === 'stake_limit';
}

/** What one piece of limit evidence says the book takes: the stated maximum, the accepted stake, else what it took before. */
function capOf(e: Evidence, earlier: readonly Evidence[]): number {
  if (e.kind === 'accepted') return e.acceptedCents ?? 0;
  const stated = statedMaximumCents(e.errorText);
  if (stated !== undefined) return stated;
  const asked = e.askedCents ?? Number.POSITIVE_INFINITY;
  const below = earlier.filter((x) => x.kind === 'accepted' && (x.acceptedCents ?? 0) < asked);
  return Math.max(0, ...below.map((x) => x.acceptedCents ?? 0));
}

function trendOf(caps: number[]): LimitTrend {
  if (caps.length < 2) return 'first';
  const [prev, last] = [caps[caps.length - 2] as number, caps[caps.length - 1] as number];
  return last < prev ? 'shrinking' : last > prev ? 'growing' : 'steady';
}

/** The stake caps of a session: per league and market with limit evidence in the window, the latest word. */
export function stakeCaps(evidence: readonly Evidence[], now: number): StakeCap[] {
  const recent = evidence.filter((e) => isBet(e) && e.sport && e.market && now - e.at <= HEALTH_RULES.windowMs);
  const byMarket = new Map<string, Evidence[]>();
  for (const e of [...recent].sort((a, b) => a.at - b.at)) {
    const key = `${e.sport}|${e.market}`;
    byMarket.set(key, [...(byMarket.get(key) ?? []), e]);
  }
  const caps: StakeCap[] = [];
  for (const list of byMarket.values()) {
    const limits = list.map((e, i) => ({ e, i })).filter(({ e }) => isLimitEvidence(e));
    const latest = limits[limits.length - 1];
    if (!latest) continue;
    const history = limits.map(({ e, i }) => capOf(e, list.slice(0, i)));
    // A bigger stake taken since the latest limit raises the cap: the book showed it takes that much now.
    const after = list.slice(latest.i + 1).filter((e) => e.kind === 'accepted');
    const cap = Math.max(history[history.length - 1] as number, ...after.map((e) => e.acceptedCents ?? 0));
    caps.push({
      sport: latest.e.sport as string,
      market: latest.e.market as string,
      marketLabel: latest.e.marketLabel ?? (latest.e.market as string),
      capCents: cap,
      trend: trendOf([...history.slice(0, -1), cap]),
      since: latest.e.at,
    });
  }
  return caps.sort((a, b) => a.capCents - b.capCents || a.sport.localeCompare(b.sport));
}

function refusalRate(evidence: readonly Evidence[], now: number, windowMs: number): number | null {
  const bets = evidence.filter((e) => isBet(e) && now - e.at <= windowMs);
  if (bets.length === 0) return null;
  return bets.filter((e) => e.kind === 'refused').length / bets.length;
}

/** Why a session is offline, or null: not listed, not active, or its latest start reached no client. */
function offlineReason(evidence: readonly Evidence[], now: SessionNow | undefined): string | null {
  if (now && !now.active) return now.status === 'missing' ? 'not listed by the gateway' : `session ${now.status}`;
  const sorted = [...evidence].sort((a, b) => a.at - b.at);
  const lastStatus = [...sorted].reverse().find((e) => e.kind === 'status' || e.kind === 'start');
  const lastAccepted = [...sorted].reverse().find((e) => e.kind === 'accepted');
  if (lastStatus?.kind === 'start' && lastStatus.status === 'not_delivered') {
    if (!lastAccepted || lastAccepted.at < lastStatus.at) return 'its client is not connected (start not delivered)';
  }
  if (!now && lastStatus?.kind === 'status' && lastStatus.status !== 'active') return `session ${lastStatus.status}`;
  const lastSend = [...sorted].reverse().find((e) => isBet(e) || e.kind === 'send_failed');
  if (lastSend?.kind === 'send_failed' && lastSend.errorClass === 'session_inactive') return 'session not active';
  return null;
}

/** The session's state and its reasons from its evidence (oldest first or not) and, when known, its listing now. */
export function sessionHealth(
  sessionId: string,
  bookie: string,
  evidence: readonly Evidence[],
  now: number,
  listed?: SessionNow,
): SessionHealth {
  const mine = evidence.filter((e) => e.sessionId === sessionId);
  const bets = mine.filter(isBet).sort((a, b) => a.at - b.at);
  const recentAccepted = bets.filter((e) => e.kind === 'accepted' && now - e.at <= HEALTH_RULES.windowMs);
  const base = {
    sessionId,
    bookie,
    caps: stakeCaps(mine, now),
    largestAcceptedCents: recentAccepted.length ? Math.max(...recentAccepted.map((e) => e.acceptedCents ?? 0)) : null,
    refusalRate7d: refusalRate(mine, now, HEALTH_RULES.shortWindowMs),
    refusalRate30d: refusalRate(mine, now, HEALTH_RULES.windowMs),
    lastBetAt: bets.length ? (bets[bets.length - 1] as Evidence).at : null,
  };
  const offline = offlineReason(mine, listed);
  if (offline) return { ...base, state: 'offline', reasons: [offline] };
  const restriction = [...bets]
    .reverse()
    .find(
      (e) => e.kind === 'refused' && e.errorClass === 'account_restricted' && now - e.at <= HEALTH_RULES.restrictionMs,
    );
  if (restriction && !bets.some((e) => e.kind === 'accepted' && e.at > restriction.at)) {
    return { ...base, state: 'restricted', reasons: [`refused as restricted: "${clipText(restriction.errorText)}"`] };
  }
  if (base.caps.length > 0) {
    return {
      ...base,
      state: 'stake-limited',
      reasons: base.caps.map((c) => `${capPhrase(c)}${c.trend === 'shrinking' ? ' (shrinking)' : ''}`),
    };
  }
  return { ...base, state: 'healthy', reasons: [] };
}

function clipText(text: string | null | undefined): string {
  const t = (text ?? '').trim();
  return t.length > 120 ? `${t.slice(0, 119)}…` : t;
}

/** "took at most $40.00 on NFL head-to-head lately" */
export function capPhrase(c: Pick<StakeCap, 'capCents' | 'sport' | 'marketLabel'>): string {
  return `took at most ${formatMoney(c.capCents)} on ${marketPhrase(c.sport, c.marketLabel)} lately`;
}

/** Why a session cannot take a stake on a market now, or null when it can (what routing leaves out, and why). */
export function whyNotFor(
  health: SessionHealth,
  bet: { sport: string; market: string; stakeCents: number },
): string | null {
  if (health.state === 'offline') return health.reasons[0] ?? 'offline';
  if (health.state === 'restricted') return 'restricted by the book';
  const cap = health.caps.find((c) => c.sport === bet.sport && c.market === bet.market);
  if (cap && bet.stakeCents > cap.capCents) return capPhrase(cap);
  return null;
}

/** One line of the state-change notice. */
export function stateChangeLine(bookie: string, username: string, from: HealthState | null, h: SessionHealth): string {
  const why = h.reasons.length ? `: ${h.reasons.join('; ')}` : '';
  return `${bookie} (${username}) is now ${h.state}${from ? ` (was ${from})` : ''}${why}`;
}
