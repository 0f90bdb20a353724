// The fixture accounts every test and doc relies on (DESIGN.md). Ids are fixed strings, so the same seed
// (or any seed) gives the same accounts; only money-free details vary with the world.
import type { Account, BonusToken, BookAccount, Session, SessionStatus } from './types.js';

interface SessionSpec {
  id: string;
  bookie: string;
  username: string;
  accountId: string;
  status: SessionStatus;
  pc: string;
  /** The client machine is not connected (start answers delivered: false). */
  offline?: boolean;
}

interface AccountSpec {
  id: string;
  key: string;
  name: string;
  subscription: boolean;
  canBet: boolean;
  demo?: boolean;
  sessions: SessionSpec[];
}

// Bookmaker account ids (UUID-shaped, fixed).
export const BOOK_ACCOUNT_IDS = {
  alpha_a: '0a1f0000-0000-4000-8000-00000000000a',
  alpha_b: '0a1f0000-0000-4000-8000-00000000000b',
  alpha_c: '0a1f0000-0000-4000-8000-00000000000c',
  bravo_a: '0b2a0000-0000-4000-8000-00000000000a',
  bravo_c: '0b2a0000-0000-4000-8000-00000000000c',
  nosub_a: '0c3b0000-0000-4000-8000-00000000000a',
  readonly_a: '0d4c0000-0000-4000-8000-00000000000a',
} as const;

const A = BOOK_ACCOUNT_IDS;

const ACCOUNT_SPECS: AccountSpec[] = [
  {
    id: 'acct-alpha',
    key: 'sandbox-key-alpha',
    name: 'Alpha Syndicate',
    subscription: true,
    canBet: true,
    sessions: [
      {
        id: '5e55a1fa-0000-4000-8000-00000000000a',
        bookie: 'bookie_a',
        username: 'alpha_a',
        accountId: A.alpha_a,
        status: 'active',
        pc: 'pc-alpha-1',
      },
      {
        id: '5e55a1fa-0000-4000-8000-00000000000b',
        bookie: 'bookie_b',
        username: 'alpha_b',
        accountId: A.alpha_b,
        status: 'active',
        pc: 'pc-alpha-1',
      },
      {
        id: '5e55a1fa-0000-4000-8000-00000000000c',
        bookie: 'bookie_c',
        username: 'alpha_c',
        accountId: A.alpha_c,
        status: 'active',
        pc: 'pc-alpha-2',
      },
      // A second machine logged into the same bookie_b account, currently not running.
      {
        id: '5e55a1fa-0000-4000-8000-0000000000b2',
        bookie: 'bookie_b',
        username: 'alpha_b',
        accountId: A.alpha_b,
        status: 'inactive',
        pc: 'pc-alpha-3',
      },
    ],
  },
  {
    id: 'acct-bravo',
    key: 'sandbox-key-bravo',
    name: 'Bravo Syndicate',
    subscription: true,
    canBet: true,
    sessions: [
      {
        id: '5e55b2a0-0000-4000-8000-00000000000a',
        bookie: 'bookie_a',
        username: 'bravo_a',
        accountId: A.bravo_a,
        status: 'active',
        pc: 'pc-bravo-1',
      },
      {
        id: '5e55b2a0-0000-4000-8000-00000000000c',
        bookie: 'bookie_c',
        username: 'bravo_c',
        accountId: A.bravo_c,
        status: 'active',
        pc: 'pc-bravo-1',
      },
      // A laptop logged into the same bookie_c account whose client is offline: commands are not delivered.
      {
        id: '5e55b2a0-0000-4000-8000-0000000000c2',
        bookie: 'bookie_c',
        username: 'bravo_c',
        accountId: A.bravo_c,
        status: 'inactive',
        pc: 'pc-bravo-2',
        offline: true,
      },
    ],
  },
  {
    id: 'acct-nosub',
    key: 'sandbox-key-nosub',
    name: 'No Subscription Ltd',
    subscription: false,
    canBet: true,
    sessions: [
      {
        id: '5e55c3b0-0000-4000-8000-00000000000a',
        bookie: 'bookie_a',
        username: 'nosub_a',
        accountId: A.nosub_a,
        status: 'active',
        pc: 'pc-nosub-1',
      },
    ],
  },
  {
    id: 'acct-readonly',
    key: 'sandbox-key-readonly',
    name: 'Read Only Desk',
    subscription: true,
    canBet: false,
    sessions: [
      {
        id: '5e55d4c0-0000-4000-8000-00000000000a',
        bookie: 'bookie_a',
        username: 'readonly_a',
        accountId: A.readonly_a,
        status: 'active',
        pc: 'pc-readonly-1',
      },
    ],
  },
  {
    id: 'acct-demo',
    key: 'demo-key',
    name: 'Public demo',
    subscription: false,
    canBet: false,
    demo: true,
    sessions: [],
  },
];

export const FIXTURE_KEYS = ACCOUNT_SPECS.map((a) => a.key);

export function buildAccounts(): Account[] {
  return ACCOUNT_SPECS.map((spec) =>
    hideKey({
      id: spec.id,
      key: spec.key,
      name: spec.name,
      subscription: spec.subscription,
      canBet: spec.canBet,
      ...(spec.demo ? { demo: true } : {}),
      sessions: spec.sessions.map(
        (s): Session => ({
          session_id: s.id,
          bookie: s.bookie,
          username: s.username,
          active: s.status === 'active',
          pc_id: s.pc,
          status: s.status,
          revoked: false,
          account_id: s.accountId,
          clientOnline: s.offline !== true,
          pendingLaunch: false,
        }),
      ),
    }),
  );
}

/** The key stays readable as `account.key` but out of JSON, util.inspect and spreads. */
function hideKey(account: Account): Account {
  Object.defineProperty(account, 'key', { enumerable: false });
  return account;
}

const CASH: Record<string, number> = {
  [A.alpha_a]: 1500,
  [A.alpha_b]: 820.5,
  [A.alpha_c]: 640,
  [A.bravo_a]: 300,
  [A.bravo_c]: 450,
  [A.nosub_a]: 100,
  [A.readonly_a]: 250,
};

/** Bonus tokens: `[amount, status]` per bookmaker account; alpha holds a splittable $25 and $10 next to used ones. */
const TOKENS: Record<string, [number, BonusToken['status']][]> = {
  [A.alpha_a]: [
    [25, 'AVAILABLE'],
    [5, 'AVAILABLE'],
    [10, 'USED'],
  ],
  [A.alpha_b]: [
    [10, 'AVAILABLE'],
    [20, 'USED'],
  ],
  [A.alpha_c]: [[50, 'AVAILABLE']],
  [A.bravo_a]: [[15, 'AVAILABLE']],
};

export function buildBookAccounts(accounts: Account[], now: Date): BookAccount[] {
  const out = new Map<string, BookAccount>();
  for (const account of accounts) {
    for (const s of account.sessions) {
      if (out.has(s.account_id)) continue;
      const expiry = new Date(now.getTime() + 14 * 86_400_000).toISOString();
      out.set(s.account_id, {
        account_id: s.account_id,
        owner: account.id,
        bookie: s.bookie,
        username: s.username,
        cash: CASH[s.account_id] ?? 0,
        bonusTokens: (TOKENS[s.account_id] ?? []).map(([amount, status], i) => ({
          id: `bt-${s.username}-${i + 1}`,
          amount,
          status,
          expiry,
          description: `$${amount} bonus bet`,
        })),
      });
    }
  }
  return [...out.values()];
}
