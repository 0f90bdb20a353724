// The account promos in play and the place_promo idempotency record.
import { randomBytes } from 'node:crypto';
import type { Envelope } from '../core/jobs.js';
import type { SimWorld } from '../world/index.js';
import { type AccountPromo, buildAccountPromos, replacementCard } from './account-promos.js';

/** Replacement cards take ids from here up, above every block the first cards use. */
const REPLACEMENT_IDS_FROM = 6001;

export class PromoBook {
  private promos: AccountPromo[] | undefined;
  /** Cards whose event started and that already have a like card on a later fixture. */
  private readonly replaced = new Set<number>();
  private readonly idempotent = new Map<string, Envelope>();
  private betSeq = 0;
  /** Bet ids differ between runs: a client's store outlives a sandbox restart. */
  private readonly runId = randomBytes(3).toString('hex');

  constructor(
    private world: () => SimWorld,
    private readonly nowMs: () => number,
  ) {}

  /** Cards are built on first use, from the world as it stands then. */
  all(): AccountPromo[] {
    if (!this.promos) {
      const w = this.world();
      this.promos = buildAccountPromos(w.upcomingMeetings(this.nowMs()), w.sportsEventsForPromos(), w.promoRace());
    }
    return this.promos;
  }

  /**
   * Why a promo is no longer active, or null when it is: used, or a card whose event (or race) is no longer
   * prematch (the bookmaker withdraws boosts at the off).
   */
  goneReason(promo: AccountPromo): string | null {
    if (promo.state !== 'active') return 'it has already been used';
    const status = promo.epk ? this.world().eventStatus(promo.epk) : undefined;
    if (status === 'in_play') return 'its event has started, so the card is gone';
    if (status === 'finished') return 'its event has finished, so the card is gone';
    return null;
  }

  /** Promos still active now (the listing shows only these). */
  active(): AccountPromo[] {
    this.replaceStarted();
    return this.all().filter((p) => this.goneReason(p) === null);
  }

  /**
   * Gives every bet-boost single whose event has started (not one that was used) a like card on the next
   * fixture far enough ahead, so the cards the fixtures promise exist at any sandbox time.
   */
  private replaceStarted(): void {
    const promos = this.all();
    let added = false;
    for (const gone of [...promos]) {
      if (gone.state !== 'active' || this.replaced.has(gone.promo_id) || this.goneReason(gone) === null) continue;
      const taken = new Set(promos.filter((p) => p.account_id === gone.account_id && p.epk).map((p) => p.epk!));
      const id = Math.max(REPLACEMENT_IDS_FROM - 1, ...promos.map((p) => p.promo_id)) + 1;
      const w = this.world();
      const card =
        gone.kind === 'racing'
          ? replacementCard(gone, id, { race: w.promoRace(taken) })
          : replacementCard(gone, id, { event: w.sportsEventsForPromos(taken)[0] });
      if (!card) continue;
      this.replaced.add(gone.promo_id);
      promos.push(card);
      added = true;
    }
    if (added) promos.sort((a, b) => a.promo_id - b.promo_id);
  }

  find(promo_id: number): AccountPromo | undefined {
    return this.all().find((p) => p.promo_id === promo_id);
  }

  /** The envelope first answered for this account's idempotency key, if any. */
  replay(accountId: string, key: string): Envelope | undefined {
    return this.idempotent.get(`${accountId}\n${key}`);
  }

  remember(accountId: string, key: string, envelope: Envelope): void {
    this.idempotent.set(`${accountId}\n${key}`, envelope);
  }

  nextBetId(promo_id: number): string {
    this.betSeq += 1;
    return `promo-${promo_id}-${this.runId}-${String(this.betSeq).padStart(4, '0')}`;
  }

  dump(): { promos: AccountPromo[] | null; idempotent: [string, Envelope][]; betSeq: number; replaced: number[] } {
    return structuredClone({
      promos: this.promos ?? null,
      idempotent: [...this.idempotent],
      betSeq: this.betSeq,
      replaced: [...this.replaced],
    });
  }

  load(d: {
    promos: AccountPromo[] | null;
    idempotent: [string, Envelope][];
    betSeq: number;
    /** Absent in snapshots from before card replacement. */
    replaced?: number[];
  }): void {
    const copy = structuredClone(d);
    this.promos = copy.promos ?? undefined;
    this.replaced.clear();
    for (const id of copy.replaced ?? []) this.replaced.add(id);
    this.idempotent.clear();
    for (const [k, v] of copy.idempotent) this.idempotent.set(k, v);
    this.betSeq = Math.max(this.betSeq, copy.betSeq);
  }

  reset(): void {
    this.promos = undefined;
    this.replaced.clear();
    this.idempotent.clear();
    this.betSeq = 0;
  }
}
