import { DEFAULT_TIMEOUT_MS, type Transaction } from '../../gateway/index.js';
import type { Logger } from '../config/logger.js';
import type { GatewayPort } from '../gateway-port.js';
import { readTransactionsSince } from '../jobs/index.js';
import { centsFromDollars } from '../model/money.js';
import { singlePass } from '../ops/single-flight.js';
import { type BetRecord, type BetRecordRepo, IN_FLIGHT, UNRESOLVED } from './bet-records.js';

/** Clocks of the desk and the gateway may disagree by this much. */
const CLOCK_SKEW_MS = 120_000;
/** After a known timeout_at, how long a bet may still take to show in the history. */
const AFTER_TIMEOUT_MS = 120_000;

export interface ReconcilerOptions {
  gateway: GatewayPort;
  records: BetRecordRepo;
  logger: Logger;
  now: () => number;
  /** After this long from the send with no evidence, a record is `not_placed` (at least timeout_at + 2 min). */
  safeWindowMs: number;
  intervalMs: number;
  /**
   * A record in `sending` younger than this is still in its sender's hands (its place_bet within its deadline, or
   * the writes that follow the answer): it is left to that sender, unread. Default SEND_GRACE_MS.
   */
  sendGraceMs?: number;
  callbackUrl: string | undefined;
  /** Shows the record's new state in its slip message (through the outbox). */
  show: (record: BetRecord) => Promise<void>;
  /** Resends a promo record with its stored idempotency key (the gateway returns the first job if it had one). */
  resend?: (record: BetRecord) => Promise<BetRecord | undefined>;
}

/** A promo record is left this long to its own send before reconciliation resends it. */
const PROMO_RESEND_AFTER_MS = 30_000;

/**
 * How long a record may be `sending` in its sender's hands: the gateway call's one deadline (retries included)
 * and a few seconds for the job row and the move that follow its answer.
 */
export const SEND_GRACE_MS = DEFAULT_TIMEOUT_MS + 5_000;

export interface ReconcileReport {
  adopted: number;
  notPlaced: number;
  waiting: number;
}

const cents = (n: number | null | undefined) => (typeof n === 'number' ? centsFromDollars(n) : Number.NaN);

/** The latest moment the gateway can have taken the bet of a record (docs/reliability.md, matching rule). */
export function deadlineOf(record: BetRecord, safeWindowMs: number): number {
  const byWindow = record.createdAt + safeWindowMs;
  return record.timeoutAt === null ? byWindow : Math.max(byWindow, record.timeoutAt + AFTER_TIMEOUT_MS);
}

/**
 * Whether a gateway transaction is the bet of a record: same session (the caller reads per session), a bet,
 * the same stake in cents, one selection with the record's event, market and selection text (a multi: one per leg,
 * each its runner and position), placed between
 * the send (less the clock skew) and the record's deadline (plus the skew).
 */
export function matches(record: BetRecord, tx: Transaction, safeWindowMs: number): boolean {
  if (tx.type !== 'bet' || cents(tx.stake) !== record.stakeCents) return false;
  const sels = (tx.selections ?? []) as Array<{ event?: unknown; selection?: unknown; market?: unknown }>;
  const p = record.payload;
  // A same-race multi: one selection per leg, in order, each the leg's runner and position in the race.
  const wanted = p.multi
    ? p.multi.legs.map((l) => ({ market: l.position, selection: l.runner }))
    : [{ market: p.marketKey, selection: p.selectionName ?? p.selectionLabel }];
  if (sels.length !== wanted.length) return false;
  for (const [i, sel] of sels.entries()) {
    if (sel.market !== wanted[i]?.market || sel.selection !== wanted[i]?.selection) return false;
    if (p.eventName !== p.epk && sel.event !== p.eventName) return false;
  }
  const at = Date.parse(String(tx.placed_at ?? ''));
  if (!Number.isFinite(at)) return false;
  return at >= record.createdAt - CLOCK_SKEW_MS && at <= deadlineOf(record, safeWindowMs) + CLOCK_SKEW_MS;
}

/**
 * The spec gives place_bet no idempotency key, so the desk finds its own bets: records that may have reached
 * the gateway (`sending`, `unknown`) are matched against the session's transactions. A match is adopted
 * (`placed`, with the gateway's bet id; a bet id is adopted at most once, the column is unique); a record
 * with no match once its deadline passed is `not_placed`, and only then is its stake released.
 */
export class Reconciler {
  #timer: NodeJS.Timeout | undefined;
  readonly #passes = singlePass(() => this.#pass());
  #stopped = false;

  constructor(private readonly o: ReconcilerOptions) {}

  start(): void {
    if (this.#timer || this.#stopped) return;
    this.#timer = setInterval(() => void this.run().catch(() => undefined), this.o.intervalMs);
    this.#timer.unref();
    void this.run().catch(() => undefined);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#passes.settled();
  }

  /** One pass; overlapping calls share it. */
  run(): Promise<ReconcileReport> {
    return this.#passes.run();
  }

  async #pass(): Promise<ReconcileReport> {
    const report: ReconcileReport = { adopted: 0, notPlaced: 0, waiting: 0 };
    const now = this.o.now();
    const grace = this.o.sendGraceMs ?? SEND_GRACE_MS;
    // A send still within its deadline ends by its own sender's move; reading the book's history for it would
    // cost a read per beat for every bet in flight, and could judge it before its answer came.
    const open = (await this.o.records.inStates(UNRESOLVED)).filter((r) => {
      const inFlight = IN_FLIGHT.includes(r.state) && now - r.updatedAt < grace;
      if (inFlight) report.waiting += 1;
      return !inFlight;
    });
    const bySession = new Map<string, BetRecord[]>();
    for (const r of open) bySession.set(r.sessionId, [...(bySession.get(r.sessionId) ?? []), r]);
    for (const [sessionId, records] of bySession) {
      if (this.#stopped) break;
      try {
        await this.#session(sessionId, records, report);
      } catch (err) {
        report.waiting += records.length;
        this.o.logger.warn('reconciliation read failed; will retry', { sessionId, err });
      }
    }
    if (report.adopted + report.notPlaced > 0) this.o.logger.info('reconciled bets with the gateway', { ...report });
    return report;
  }

  async #session(sessionId: string, all: BetRecord[], report: ReconcileReport): Promise<void> {
    const now = this.o.now();
    // place_promo takes an idempotency key (the placement id, stored before the first send): resending is safe,
    // and it is the evidence, so promo records are never matched against the history.
    const records = all.filter((r) => r.payload.kind !== 'promo');
    for (const r of all.filter((x) => x.payload.kind === 'promo')) {
      if (!this.o.resend || now - r.updatedAt < PROMO_RESEND_AFTER_MS) {
        report.waiting += 1;
        continue;
      }
      const moved = await this.o.resend(r);
      if (moved && moved.state !== r.state) report.adopted += 1;
      else report.waiting += 1;
    }
    if (records.length === 0) return;
    const oldest = Math.min(...records.map((r) => r.createdAt));
    const read = await readTransactionsSince(this.o.gateway, sessionId, oldest - CLOCK_SKEW_MS, now, {
      callbackUrl: this.o.callbackUrl,
    });
    if (!read) {
      report.waiting += records.length;
      return;
    }
    // Only the bets that could be one of these records are looked up: a session's whole history of bet ids grows
    // with every bet the desk ever placed on it.
    const candidates = read.transactions.filter((t) => records.some((r) => matches(r, t, this.o.safeWindowMs)));
    const known = await this.o.records.knownBetIds(
      sessionId,
      candidates.map((t) => t.id),
    );
    const byTime = [...candidates].sort(
      (a, b) => Date.parse(String(a.placed_at ?? '')) - Date.parse(String(b.placed_at ?? '')),
    );
    for (const record of records) {
      const tx = byTime.find((t) => !known.has(t.id) && matches(record, t, this.o.safeWindowMs));
      if (tx) {
        known.add(tx.id);
        const moved = await this.#adopt(record, tx);
        if (moved) {
          report.adopted += 1;
          await this.o.show(moved);
        }
        continue;
      }
      // Only a read that reaches back past the send can say "no such bet".
      if (read.complete && now > deadlineOf(record, this.o.safeWindowMs)) {
        const moved = await this.o.records.markNotPlaced(
          record.placementId,
          { note: "no matching bet in the book's history after the safe window" },
          now,
        );
        if (moved) {
          report.notPlaced += 1;
          await this.o.show(moved);
        }
      } else report.waiting += 1;
    }
  }

  async #adopt(record: BetRecord, tx: Transaction): Promise<BetRecord | undefined> {
    try {
      return await this.o.records.markAdopted(
        record.placementId,
        { betId: tx.id, odds: tx.odds ?? record.odds, note: 'found in the book history by reconciliation' },
        this.o.now(),
      );
    } catch (err) {
      // The unique bet id refused a second adoption (another process took it first): leave the record.
      this.o.logger.warn('a gateway bet was already adopted by another record', { betId: tx.id, err });
      return undefined;
    }
  }
}
