// Builds the Sandbox object (clock, accounts, ledger, jobs, world, faults) and rebuilds it on reset.
import { Accounts } from '../accounts/accounts.js';
import { Ledger } from '../accounts/ledger.js';
import { PromoBook } from '../accounts/promo-book.js';
import { SimWorld } from '../world/index.js';
import { SandboxClock } from './clock.js';
import { type FaultConfig, FaultState } from './faults.js';
import { Jobs } from './jobs.js';
import type { Sandbox } from './sandbox.js';

export interface StartSandboxOptions {
  port?: number;
  host?: string;
  seed?: number;
  speed?: number;
  /** Mounts the /_sandbox control routes (no key needed): for tests and local tools only. */
  control?: boolean;
  /** true: the default fault mix; an object: exactly those faults; absent/false: none. */
  faults?: FaultConfig | boolean;
  /** Sandbox clock start; default now. */
  start?: Date;
  /** No log output. */
  quiet?: boolean;
}

export async function createSandboxState(opts: StartSandboxOptions = {}): Promise<Sandbox> {
  const seed = opts.seed ?? 1;
  const log = opts.quiet ? () => {} : (m: string) => console.log(`[sandbox] ${m}`);
  const clock = new SandboxClock({ ...(opts.start ? { start: opts.start } : {}), speed: opts.speed ?? 1 });
  const faults = new FaultState(opts.faults, seed);
  const accounts = new Accounts(clock.now());
  const ledger = new Ledger(accounts, clock);
  const counters = { requests: 0, errors: 0, samples: 0, jobs: 0, webhooksDelivered: 0, webhooksDeadLettered: 0 };
  const jobs = new Jobs(clock, faults, seed, (outcome) => {
    if (outcome === 'delivered') counters.webhooksDelivered += 1;
    else counters.webhooksDeadLettered += 1;
  });
  const world = new SimWorld({ seed, clock });
  const sb: Sandbox = {
    clock,
    accounts,
    ledger,
    jobs,
    world,
    faults,
    seed,
    counters,
    log,
    promos: new PromoBook(
      () => sb.world,
      () => clock.nowMs(),
    ),
  };
  return sb;
}

/** Rebuilds accounts, ledger, jobs and the world from the seed (control route reset). */
export async function resetSandbox(sb: Sandbox): Promise<void> {
  sb.jobs.reset();
  sb.accounts.reset(sb.clock.now());
  sb.ledger.reset();
  sb.world = new SimWorld({ seed: sb.seed, clock: sb.clock });
  sb.promos.reset();
}
