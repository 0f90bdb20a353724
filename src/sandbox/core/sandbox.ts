// The Sandbox object every handler receives: the platform's state and the simulated world.
import type { Accounts } from '../accounts/accounts.js';
import type { Ledger } from '../accounts/ledger.js';
import type { PromoBook } from '../accounts/promo-book.js';
import type { SimWorld } from '../world/index.js';
import type { SandboxClock } from './clock.js';
import type { FaultState } from './faults.js';
import type { Jobs } from './jobs.js';

export interface Counters {
  requests: number;
  errors: number;
  samples: number;
  jobs: number;
  webhooksDelivered: number;
  webhooksDeadLettered: number;
}

export interface Sandbox {
  clock: SandboxClock;
  accounts: Accounts;
  ledger: Ledger;
  jobs: Jobs;
  world: SimWorld;
  faults: FaultState;
  /** Account promos (bet-boost cards, tokens, offers) and place_promo idempotency. */
  promos: PromoBook;
  seed: number;
  counters: Counters;
  /** Logs without secrets; silent when started quiet. */
  log(message: string): void;
}
