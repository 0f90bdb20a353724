// The account promos in play and the place_promo idempotency record.
import { randomBytes } from 'node:crypto';
import type { Envelope } from '../core/jobs.js';
import type { World } from '../core/sandbox.js';
import { type AccountPromo, buildAccountPromos } from './account-promos.js';

export class PromoBook {
  private promos: AccountPromo[] | undefined;
  private readonly idempotent = new Map<string, Envelope>();
  private betSeq = 0;
  /** Bet ids differ between runs: a client's store outlives a sandbox restart. */
  private readonly runId = randomBytes(3).toString('hex');

  constructor(
    private world: () => World,
    private readonly today: () => string,
  ) {}

  /** Cards are built on first use, from the world as it stands then. */
  all(): AccountPromo[] {
    if (!this.promos) {
      const w = this.world();
      const today = this.today();
      this.promos = buildAccountPromos(w.racingMeetings(today), w.sportsEventsForPromos(), today, w.promoRace?.());
    }
    return this.promos;
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

  reset(): void {
    this.promos = undefined;
    this.idempotent.clear();
    this.betSeq = 0;
  }
}
