import { betOutcomeOf, type JobOutcome, placedSelectionOf, StackedSrmResult } from '../../gateway/index.js';
import type { AccountHealth } from '../accounts/index.js';
import type { Logger } from '../config/logger.js';
import type { JobRecord } from '../jobs/index.js';
import { centsFromDollars } from '../model/money.js';
import { type SlipPayload, type StoredSlipPayload, slipFromStored } from '../model/slip-rules.js';
import type { Outbox } from '../outbox/index.js';
import type { Row, Tx } from '../store/index.js';
import { type BetRecord, type BetRecordRepo, type MoveFields, movedAhead, movedFrom } from './bet-records.js';
import { RANK } from './model/edit-rank.js';
import { placedOther, placedOtherNote } from './model/placed-other.js';
import type { BetPresenter } from './presenter.js';
import { type StackPart, stackParts } from './stack.js';

/** The stake the book accepted when it took less than the slip asked (the record then holds that stake). */
function takenForLess(slip: SlipPayload, receipt: { stake?: number }): { stakeCents?: number } {
  const asked = slip.stakeCents;
  const taken = receipt.stake === undefined ? undefined : centsFromDollars(receipt.stake);
  return taken !== undefined && taken > 0 && taken < asked ? { stakeCents: taken } : {};
}

/** What a bet job carries from the send to its outcome. */
export interface BetJobContext {
  /** The bet record this job belongs to (write-ahead, see repos/bet-records.ts). */
  placementId: string;
  /** Stored with the job: read it with slipFromStored (an older job's slip has its stake in dollars). */
  slip: StoredSlipPayload;
  guildId: string | null;
  userId: string;
  day: string;
  odds: number;
}

/** What a stack's job carries from the send to its outcome (decision 2010): its records, in the stack's order. */
export interface StackJobContext {
  placementIds: string[];
  /** The stack slip, stored with the job (what /jobs shows). */
  slip: StoredSlipPayload;
  guildId: string | null;
  userId: string;
  day: string;
}

export interface BetResultsDeps {
  records: BetRecordRepo;
  /** Account health: each result is evidence about its session (optional so older wiring still builds). */
  accounts?: AccountHealth;
  outbox: Outbox;
  present: Pick<BetPresenter, 'record' | 'stack' | 'receipt' | 'jobLost' | 'placedOther'>;
  logger: Logger;
  now: () => number;
}

/**
 * A bet job's outcome applied to its record: the named bet move it makes (placed, refused, result unknown), then
 * the slip message's edit for the state the record is in. index.ts hands it the tracker's `bet` outcomes.
 */
export class BetResults {
  constructor(private readonly d: BetResultsDeps) {}

  /** Queues the slip message's edit for the record's state (idempotent: the outbox keeps the latest stage). */
  async show(record: BetRecord): Promise<void> {
    if (!record.messageId) return;
    // A stack's records share its slip message, which shows them all.
    if (record.payload.stackOf) return this.#showStack(record.payload.stackOf.slipId);
    const staged = this.d.present.record(record);
    if (staged) await this.d.outbox.edit(record.channelId, record.messageId, staged.view, staged.rank);
  }

  /** Moves the job's record by its outcome (every move is guarded, so applying one twice is harmless). */
  async apply(job: JobRecord<BetJobContext>, outcome: JobOutcome): Promise<void> {
    const placementId = job.context.placementId;
    if (placementId === undefined) return this.#applyLegacy(job, outcome);
    const now = this.d.now();
    // The slip's edit is queued as soon as the move commits, before its ledger entry is chained.
    let shown = false;
    const show = async (record: BetRecord) => {
      shown = true;
      await this.show(record);
    };
    const { name, set, other } = this.#moveOf(job, outcome);
    const moved = await this.d.records.move(placementId, name, set, now, show);
    if (moved && other) await this.#tellPlacedOther(moved, other);
    const record = moved ?? (await this.d.records.get(placementId));
    if (record && !shown) await this.show(record);
    if (record) await this.#evidence(record, outcome);
  }

  /**
   * A webhook's outcome drawn ahead of its transaction (decision 2120): the slip's edit as `applyInTx` will record
   * it, from the record as committed (`job.shown`, the copy placement handed the tracker, or read now), sent through
   * the outbox at once. Undefined: nothing to show ahead (no
   * record or message, or the record is not in a state the outcome's move leaves).
   */
  async ahead(
    job: { correlationId: string; context: unknown; shown?: unknown },
    outcome: JobOutcome,
    read: <R extends Row = Row>(sql: string, ...params: unknown[]) => Promise<R[]>,
  ): Promise<{ send: () => Promise<boolean>; release: (restage: boolean) => void } | undefined> {
    const bet = { ...job, kind: 'bet' } as JobRecord<BetJobContext>;
    const placementId = bet.context?.placementId;
    if (placementId === undefined) return undefined;
    const { name, set } = this.#moveOf(bet, outcome);
    // The record as placement committed it, in hand (decision 2137); else read without waiting for the writer.
    const inHand = job.shown as BetRecord | undefined;
    const moved =
      inHand?.placementId === placementId && inHand.messageId
        ? movedFrom(inHand, name, set, this.d.now())
        : await movedAhead(read, placementId, name, set, this.d.now());
    const staged = moved?.messageId ? this.d.present.record(moved) : undefined;
    if (!moved?.messageId || !staged) return undefined;
    const { channelId, messageId } = { channelId: moved.channelId, messageId: moved.messageId };
    return {
      send: () => this.d.outbox.sendAhead(channelId, messageId, staged.view, staged.rank),
      release: (restage) => this.d.outbox.release(channelId, messageId, restage),
    };
  }

  /**
   * A webhook's outcome applied inside the transaction that stores its delivery and resolves its job (decision
   * 1990): the record's move, the slip message's edit (leased to this process when no send of the message holds
   * it) and a placed-other notice commit together. What it returns runs after the commit: the edit goes to Discord
   * at once, then the ledger entry is chained and the account's evidence recorded. Undefined when the job carries no
   * bet record (older jobs take the tracker's ordinary path).
   */
  async applyInTx(
    tx: Tx,
    job: JobRecord<BetJobContext>,
    outcome: JobOutcome,
  ): Promise<(() => Promise<void>) | undefined> {
    const placementId = job.context.placementId;
    if (placementId === undefined) return undefined;
    const now = this.d.now();
    const { name, set, other } = this.#moveOf(job, outcome);
    const moved = await this.d.records.moveInTx(tx, placementId, name, set, now);
    if (!moved) return undefined;
    const record = moved.record;
    const staged = record.messageId ? this.d.present.record(record) : undefined;
    const leased =
      staged && record.messageId
        ? await this.d.outbox.editInTx(tx, record.channelId, record.messageId, staged.view, staged.rank)
        : undefined;
    if (other)
      await this.d.outbox.createInTx(
        tx,
        `placed-other:${placementId}`,
        record.channelId,
        this.d.present.placedOther(record, other),
      );
    return async () => {
      await this.d.records.committed(name, moved, async () => {
        if (leased) this.d.outbox.sendLeased(leased);
        else this.d.outbox.kick();
      });
      if (other) {
        this.#logPlacedOther(record, other);
        this.d.outbox.kick();
      }
      await this.#evidence(record, outcome);
    };
  }

  /** The named bet move an outcome makes (placed, refused, result unknown) and its fields. */
  #moveOf(
    job: JobRecord<BetJobContext>,
    outcome: JobOutcome,
  ): { name: 'markPlaced' | 'markRefused' | 'markResultUnknown'; set: Partial<MoveFields>; other?: string } {
    if (outcome.status !== 'completed') {
      return { name: 'markResultUnknown', set: { note: `the gateway reported the job as ${outcome.status}` } };
    }
    const slip = slipFromStored(job.context.slip);
    const receipt = betOutcomeOf(outcome.result);
    if (receipt.placed) {
      // The bet stands whatever was placed (it is the book's), but another selection than the slip's is never
      // passed over: the placement's ledger entry names it, and the member is told (issue 36).
      const other = placedOther(slip, placedSelectionOf(outcome.result));
      return {
        name: 'markPlaced',
        set: {
          betId: receipt.betId,
          odds: receipt.odds ?? job.context.odds,
          correlationId: job.correlationId,
          ...takenForLess(slip, receipt),
          ...(other ? { note: placedOtherNote(other) } : {}),
        },
        ...(other ? { other } : {}),
      };
    }
    if (!receipt.unreadable) {
      return {
        name: 'markRefused',
        set: { note: receipt.message ?? 'the bookmaker refused the bet', correlationId: job.correlationId },
      };
    }
    this.d.logger.warn('bet result of an unexpected shape; the bet is checked against the book instead', {
      correlationId: job.correlationId,
    });
    return { name: 'markResultUnknown', set: { note: 'unreadable result' } };
  }

  /** Evidence is secondary to the bet: a failure to record it is logged, never a reason to handle the result again. */
  async #evidence(record: BetRecord, outcome: JobOutcome): Promise<void> {
    await this.d.accounts
      ?.betResult(record, outcome)
      .catch((err) =>
        this.d.logger.warn('recording account evidence failed', { placementId: record.placementId, err }),
      );
  }

  /** The stack slip's message for its records' states now (the rank grows as each record moves on). */
  async #showStack(slipId: string): Promise<void> {
    const records = await this.d.records.byStack(slipId);
    const head = records[0];
    if (!head?.messageId) return;
    const staged = this.d.present.stack(records);
    if (staged) await this.d.outbox.edit(head.channelId, head.messageId, staged.view, staged.rank);
  }

  /**
   * A stack job's outcome applied to its records (decision 2010): each multi placed with its bet id or refused with
   * its reason; a refusal before placement refuses them all with the book's reason; no usable result leaves each
   * unknown for the reconciler. Every move is guarded, so applying one twice is harmless. One edit shows them all.
   */
  async applyStack(job: JobRecord<StackJobContext>, outcome: JobOutcome): Promise<void> {
    const ids = job.context.placementIds;
    const now = this.d.now();
    const parsed = outcome.status === 'completed' ? StackedSrmResult.safeParse(outcome.result) : undefined;
    const parts: StackPart[] =
      outcome.status !== 'completed'
        ? ids.map(() => ({ kind: 'unknown', note: `the gateway reported the job as ${outcome.status}` }))
        : stackParts(parsed?.success ? parsed.data : undefined, ids.length);
    let first: BetRecord | undefined;
    for (const [i, placementId] of ids.entries()) {
      const part = parts[i] ?? { kind: 'unknown', note: 'the book gave no result for this multi' };
      const record = await this.d.records.get(placementId);
      if (!record) continue;
      first ??= record;
      const correlationId = job.correlationId;
      if (part.kind === 'placed') {
        const taken = part.stakeCents;
        await this.d.records.markPlaced(
          placementId,
          {
            betId: part.betId,
            odds: part.odds ?? record.payload.shownOdds,
            correlationId,
            ...(taken !== undefined && taken > 0 && taken < record.stakeCents ? { stakeCents: taken } : {}),
          },
          now,
        );
      } else if (part.kind === 'refused') {
        await this.d.records.markRefused(placementId, { note: part.note, correlationId }, now);
      } else {
        await this.d.records.markResultUnknown(placementId, { note: part.note }, now);
      }
    }
    if (first) await this.show(first);
  }

  /** The notice of a bet placed on another selection than its slip's: once per record (outbox key), loud. */
  async #tellPlacedOther(record: BetRecord, other: string): Promise<void> {
    this.#logPlacedOther(record, other);
    await this.d.outbox.create(
      `placed-other:${record.placementId}`,
      record.channelId,
      this.d.present.placedOther(record, other),
    );
  }

  #logPlacedOther(record: BetRecord, other: string): void {
    this.d.logger.error('the gateway placed another selection than the slip showed', {
      placementId: record.placementId,
      betId: record.betId,
      marketRef: record.payload.marketRef,
      what: other,
    });
  }

  /** Jobs recorded before bet records existed carry no placement id: show their result as before. */
  async #applyLegacy(job: JobRecord<BetJobContext>, outcome: JobOutcome): Promise<void> {
    if (!job.channelId || !job.messageId) return;
    const slip = slipFromStored(job.context.slip);
    const view =
      outcome.status === 'completed'
        ? this.d.present.receipt(slip, outcome.result ?? { success: false })
        : this.d.present.jobLost(slip, outcome.status);
    await this.d.outbox.edit(job.channelId, job.messageId, view, RANK.final);
  }
}
