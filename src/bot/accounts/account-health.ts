import { betOutcomeOf, type JobOutcome, type Session } from '../../gateway/index.js';
import type { Catalog } from '../catalog/index.js';
import type { Logger } from '../config/logger.js';
import type { BetRecord } from '../model/bet-states.js';
import { BET_STATES, inStates } from '../model/bet-states.js';
import type { MessageView } from '../model/limits.js';
import { centsFromDollars } from '../model/money.js';
import type { Outbox } from '../outbox/index.js';
import { getSettings } from '../settings/index.js';
import type { BotStore } from '../store/index.js';
import { AccountEvidenceRepo, type EvidenceInput } from './account-evidence.js';
import {
  booksNotTaking,
  classifyRefusal,
  type Evidence,
  HEALTH_RULES,
  type HealthState,
  NOT_OFFERED_MS,
  notTakingText,
  type SessionHealth,
  type SessionNow,
  sessionHealth,
  whyNotFor,
} from './model/account-health.js';

/** How an account's change of state is worded for the results channel (the composition builds it from views). */
/** A first reading in these states is not news: no notice is posted for it. */
const QUIET_FIRST: readonly HealthState[] = ['healthy', 'offline'];

export interface AccountPresenter {
  accountNotice(h: SessionHealth, from: HealthState | null, username: string): MessageView;
}

export interface AccountHealthDeps {
  store: BotStore;
  catalog: Catalog;
  outbox: Outbox;
  present: AccountPresenter;
  logger: Logger;
  now: () => number;
}

/** Where a state change is announced: the guild whose evidence caused it (its results channel, else this one). */
export interface NoticePlace {
  guildId: string | null;
  guildKey: string;
  channelId: string;
}

/** A session as /accounts shows it: its health and who it is at the book. */
export interface AccountRow extends SessionHealth {
  username: string;
}

/** One candidate book of a best-price route: the book and the session that would place there. */
export interface RouteCandidate {
  book: string;
  sessionId: string;
  /** The market key the bet would go on at this book. */
  market: string;
}

function statusOf(s: Session): string {
  const status = (s as { status?: unknown }).status;
  return typeof status === 'string' ? status : s.active ? 'active' : 'inactive';
}

function listedNow(s: Session): SessionNow {
  return { sessionId: s.session_id, bookie: s.bookie, active: s.active, status: statusOf(s) };
}

const askedCentsOf = (r: BetRecord): number => r.payload.stakeCents;

/**
 * What a bet job's outcome says about its session, or nothing when the answer says nothing (not completed,
 * unreadable). `heldCents`: the stake a placed record already holds, when the outcome is rebuilt from the record.
 */
function betEvidence(
  record: BetRecord,
  outcome: JobOutcome,
  at: number,
  heldCents?: number,
): EvidenceInput | undefined {
  if (outcome.status !== 'completed') return undefined;
  const receipt = betOutcomeOf(outcome.result);
  if ('unreadable' in receipt && receipt.unreadable) return undefined;
  const p = record.payload;
  const asked = askedCentsOf(record);
  const softMiss = (outcome.result as { soft_miss?: unknown } | undefined)?.soft_miss === true;
  const base = {
    key: `bet:${record.placementId}`,
    sessionId: record.sessionId,
    bookie: record.bookie,
    guildKey: record.guildKey,
    at,
    sport: p.league ?? p.sport ?? null,
    market: p.marketKey ?? null,
    marketLabel: p.marketLabel ?? null,
    askedCents: asked,
  };
  const errorClass = classifyRefusal(receipt.message);
  // The book refuses the sport as a whole: remembered for the sport group, not held against the account.
  if (!receipt.placed && errorClass === 'not_offered' && p.sport) {
    return { ...base, sport: p.sport, kind: 'not_offered', errorClass, errorText: receipt.message ?? null };
  }
  return receipt.placed
    ? {
        ...base,
        kind: 'accepted',
        acceptedCents: Math.min(
          asked,
          heldCents ?? (receipt.stake === undefined ? asked : centsFromDollars(receipt.stake)),
        ),
      }
    : {
        ...base,
        kind: softMiss ? 'soft_miss' : 'refused',
        errorClass,
        errorText: receipt.message ?? null,
      };
}

/**
 * Account health: records what the gateway's answers say about each session (account_evidence), works out each
 * session's state with the pure rules of model/account-health.ts, announces a change of state once, and tells
 * best-price routing which sessions to leave out. Callers hand it evidence with one call each.
 */
export class AccountHealth {
  readonly #repo: AccountEvidenceRepo;

  constructor(private readonly d: AccountHealthDeps) {
    this.#repo = new AccountEvidenceRepo(d.store);
  }

  /** A bet job's outcome for its record (BetResults): accepted stake against asked, or the refusal classified. */
  async betResult(record: BetRecord, outcome: JobOutcome, at = this.d.now()): Promise<void> {
    const evidence = betEvidence(record, outcome, at);
    if (!evidence) return;
    await this.#record(evidence, { guildId: record.guildId, guildKey: record.guildKey, channelId: record.channelId });
  }

  /** place_bet refused before a job (Placement): a 403 'Session is not active' says the session is offline. */
  async sendFailed(record: BetRecord, reason: string): Promise<void> {
    await this.#record(
      {
        key: `send:${record.placementId}`,
        sessionId: record.sessionId,
        bookie: record.bookie,
        guildKey: record.guildKey,
        kind: 'send_failed',
        at: this.d.now(),
        sport: record.payload.league ?? record.payload.sport ?? null,
        market: record.payload.marketKey ?? null,
        askedCents: askedCentsOf(record),
        errorClass: classifyRefusal(reason),
        errorText: reason,
      },
      { guildId: record.guildId, guildKey: record.guildKey, channelId: record.channelId },
    );
  }

  /** A start or restart and whether a client received it (`delivered`). */
  async started(sessionId: string, bookie: string, delivered: boolean, place: NoticePlace | null): Promise<void> {
    const at = this.d.now();
    await this.#record(
      {
        key: `start:${sessionId}:${at}`,
        sessionId,
        bookie,
        kind: 'start',
        at,
        status: delivered ? 'delivered' : 'not_delivered',
      },
      place,
    );
  }

  /** The gateway's session list as seen now: a status that differs from the last one seen is evidence. */
  async sessionsSeen(sessions: readonly Session[], place: NoticePlace | null): Promise<void> {
    const at = this.d.now();
    const seen = await this.#repo.lastStatuses();
    for (const s of sessions) {
      const status = statusOf(s);
      const last = seen.get(s.session_id);
      if (last === status || (last === undefined && status === 'active')) continue;
      await this.#record(
        { key: `status:${s.session_id}:${at}`, sessionId: s.session_id, bookie: s.bookie, kind: 'status', at, status },
        place,
      );
    }
  }

  /** Every session's health now (the gateway's list read through the catalog), for /accounts. */
  async all(place: NoticePlace | null): Promise<AccountRow[]> {
    const sessions = await this.d.catalog.loadSessions();
    await this.sessionsSeen(sessions, place);
    const now = this.d.now();
    const evidence = await this.#repo.since(now - HEALTH_RULES.windowMs);
    const rows: AccountRow[] = [];
    for (const s of sessions) {
      const h = sessionHealth(s.session_id, s.bookie, evidence, now, listedNow(s));
      await this.#announce(h, place);
      rows.push({ ...h, username: s.username ?? '' });
    }
    return rows;
  }

  /**
   * The routing filter best-price /bet and /compare's Bet at best call: of the candidate sessions, those offline,
   * restricted, or stake-limited below this stake on their market, each with why in words for the slip
   * ("took at most $40.00 on NBA head-to-head lately"). Keyed by session id; sessions it can take are absent.
   */
  async leaveOut(
    candidates: readonly RouteCandidate[],
    bet: { sport: string; stakeCents: number; sportGroup?: string },
  ): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (candidates.length === 0) return out;
    const now = this.d.now();
    const refusing = bet.sportGroup ? await this.booksNotTaking(bet.sportGroup) : new Set<string>();
    const listed = new Map(((await this.d.catalog.peekSessions()) ?? []).map((s) => [s.session_id, s]));
    const evidence = await this.#repo.since(
      now - HEALTH_RULES.windowMs,
      candidates.map((c) => c.sessionId),
    );
    for (const c of candidates) {
      const s = listed.get(c.sessionId);
      const h = sessionHealth(c.sessionId, c.book, evidence, now, s ? listedNow(s) : undefined);
      const why = refusing.has(c.book)
        ? notTakingText(bet.sportGroup as string)
        : whyNotFor(h, { sport: bet.sport, market: c.market, stakeCents: bet.stakeCents });
      if (why) out.set(c.sessionId, why);
    }
    return out;
  }

  /**
   * A price check (or bet) the book refused because it takes no bets on the event's sport (`not_offered`):
   * remembered per book and sport group, so choices, watches and routing leave that book out of the sport.
   */
  async sportRefused(p: { sessionId: string; bookie: string; sport: string; errorText: string }): Promise<void> {
    const at = this.d.now();
    await this.#repo.record({
      key: `offer:${p.sessionId}:${p.sport}:${at}`,
      sessionId: p.sessionId,
      bookie: p.bookie,
      kind: 'not_offered',
      at,
      sport: p.sport,
      errorClass: 'not_offered',
      errorText: p.errorText.slice(0, 300),
    });
  }

  /** The books that refused a sport group lately (decision 1996). */
  async booksNotTaking(sport: string): Promise<Set<string>> {
    const now = this.d.now();
    return booksNotTaking(await this.#repo.notOffered(sport, now - NOT_OFFERED_MS), sport, now);
  }

  /** The warning a slip at a book the member picked carries when routing would have left that session out. */
  async slipWarning(p: {
    sessionId: string;
    bookie: string;
    sport: string;
    market: string;
    stakeCents: number;
  }): Promise<{ accountWarning?: string }> {
    const why = (
      await this.leaveOut([{ book: p.bookie, sessionId: p.sessionId, market: p.market }], {
        sport: p.sport,
        stakeCents: p.stakeCents,
      })
    ).get(p.sessionId);
    return why ? { accountWarning: `${p.bookie} ${why}: the book may refuse this stake or take less.` } : {};
  }

  /** One session's health now (the slip's warning when a member picks a book explicitly). */
  async healthOf(sessionId: string, bookie: string): Promise<SessionHealth> {
    const now = this.d.now();
    const s = ((await this.d.catalog.peekSessions()) ?? []).find((x) => x.session_id === sessionId);
    const evidence = await this.#repo.since(now - HEALTH_RULES.windowMs, [sessionId]);
    return sessionHealth(sessionId, bookie, evidence, now, s ? listedNow(s) : undefined);
  }

  /**
   * After a restart: bet results a crash left without their evidence are recorded from the records (one
   * transaction, whatever their number), then every session with evidence is judged once, so a change whose notice
   * was not yet recorded is announced (once). Judging per record would read the window once per record: a desk
   * whose records predate the evidence (its first start on this version) would take minutes to start.
   */
  async resume(records: readonly BetRecord[]): Promise<void> {
    const now = this.d.now();
    const recent = records.filter(
      (r) =>
        now - r.updatedAt <= HEALTH_RULES.windowMs &&
        inStates([...BET_STATES.refused, ...BET_STATES.placed, ...BET_STATES.settled])(r),
    );
    const known = await this.#repo.keysIn(recent.map((r) => `bet:${r.placementId}`));
    const missing: EvidenceInput[] = [];
    for (const r of recent) {
      if (known.has(`bet:${r.placementId}`)) continue;
      const result = inStates(BET_STATES.refused)(r)
        ? { success: false, error: r.note ?? 'refused' }
        : { success: true, bet_id: r.betId };
      const e = betEvidence(r, { status: 'completed', result } as JobOutcome, r.updatedAt, r.stakeCents);
      if (e) missing.push(e);
    }
    await this.#repo.recordAll(missing);
    const evidence = await this.#repo.since(now - HEALTH_RULES.windowMs);
    const places = new Map<string, NoticePlace>();
    for (const r of records)
      places.set(r.sessionId, { guildId: r.guildId, guildKey: r.guildKey, channelId: r.channelId });
    const sessions = new Map(evidence.map((e) => [e.sessionId, e.bookie]));
    for (const [sessionId, bookie] of sessions) {
      await this.#announce(sessionHealth(sessionId, bookie, evidence, now), places.get(sessionId) ?? null);
    }
  }

  async #record(e: EvidenceInput, place: NoticePlace | null): Promise<void> {
    await this.#repo.record(e);
    const now = this.d.now();
    const evidence = await this.#repo.since(now - HEALTH_RULES.windowMs, [e.sessionId]);
    const listed = ((await this.d.catalog.peekSessions()) ?? []).find((s) => s.session_id === e.sessionId);
    // The cached listing may be older than this evidence: a bet just accepted says the session is up.
    const fresh = listed && (listed.active || e.kind === 'status') ? listedNow(listed) : undefined;
    await this.#announce(sessionHealth(e.sessionId, e.bookie, evidence, now, fresh), place);
  }

  /**
   * A state that differs from the one last announced: the notice is recorded in the outbox under the change's
   * number before the state moves, so a crash between the two repeats only the move (the same key posts nothing
   * new), and the outbox sends it until Discord accepts it, once.
   */
  async #announce(h: SessionHealth, place: NoticePlace | null): Promise<void> {
    const prev = await this.#repo.state(h.sessionId);
    if (prev?.state === h.state) return;
    const now = this.d.now();
    // A first sight is news only when evidence shows trouble: healthy, or offline as listed, is where it starts.
    if (!prev && QUIET_FIRST.includes(h.state)) {
      await this.#repo.moveState(h, undefined, now, null);
      return;
    }
    if (!place) return;
    const change = (prev?.changes ?? 0) + 1;
    const settings = await getSettings(this.d.store, place.guildId);
    const username = (await this.d.catalog.peekSessions())?.find((s) => s.session_id === h.sessionId)?.username;
    await this.d.outbox.create(
      `account-state:${h.sessionId}:${change}:${h.state}`,
      settings.resultsChannelId ?? place.channelId,
      this.d.present.accountNotice(h, prev?.state ?? 'healthy', username ?? ''),
    );
    const moved = await this.#repo.moveState(h, prev, now, place.guildKey);
    if (moved) this.d.logger.info('account state changed', { sessionId: h.sessionId, from: prev?.state, to: h.state });
  }
}

export type { Evidence };
