import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROPOSAL_MOVES, type ProposalState } from '../../../../src/bot/betting/model/proposal-states.js';
import {
  allowed,
  CASHOUT_MOVES,
  type CashoutState,
  CONTRIBUTION_MOVES,
  type ContributionState,
  type Transition,
  WITHDRAWAL_MOVES,
  type WithdrawalState,
} from '../../../../src/bot/fund/model/fund-states.js';

const REPO = fileURLToPath(new URL('../../../../src/bot/fund/fund-repo.ts', import.meta.url));
const SERVICE = fileURLToPath(new URL('../../../../src/bot/fund/fund-service.ts', import.meta.url));
const SRC = fileURLToPath(new URL('../../../../src/bot/', import.meta.url));
const PROPOSALS = `${SRC}betting/proposals.ts`;
const PROPOSAL_STATES: ProposalState[] = ['open', 'placing', 'placed', 'closed', 'rejected', 'expired'];

/** Every TypeScript file under src/bot, with its text. */
function botSources(): Array<{ file: string; text: string }> {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ file: f, text: readFileSync(`${SRC}${f}`, 'utf8') }));
}

/** Calls of a proposal's move that give states instead of a move's name (`move(id, ['placing'], 'placed')`). */
function literalProposalMoves(text: string, receiver = 'proposals'): string[] {
  const calls = [...text.matchAll(new RegExp(`\\b${receiver}\\.move\\(\\s*[^,]+,\\s*([^,)]+)`, 'g'))];
  return calls
    .filter((m) => {
      const name = /^'(\w+)'$/.exec((m[1] ?? '').trim())?.[1];
      return !name || !Object.hasOwn(PROPOSAL_MOVES, name) || name === 'propose';
    })
    .map((m) => m[0]);
}

const CONTRIBUTION_STATES: ContributionState[] = ['pending', 'issued', 'cancelled'];
const CASHOUT_STATES: CashoutState[] = [
  'awaiting_approval',
  'pending',
  'redeemed',
  'withdrawing',
  'withdrawn',
  'paid',
  'rejected',
  'cancelled',
];
const WITHDRAWAL_STATES: WithdrawalState[] = [
  'sending',
  'submitted',
  'unknown',
  'unresolved',
  'completed',
  'failed',
  'not_sent',
];

/** The SQL statements of a source file (its template and quoted literals that read as SQL). */
function statements(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/`([^`]*)`|"((?:UPDATE|INSERT|SELECT)[^"]*)"/g)].map((m) => m[1] ?? m[2] ?? '');
}

describe("the fund's records move only through their tables", () => {
  it('name only states of their own record, and every state is entered by some move', () => {
    const check = <S extends string>(table: Record<string, Transition<S>>, states: S[]) => {
      for (const t of Object.values(table)) {
        expect(states).toContain(t.to);
        for (const f of t.from) expect(states).toContain(f);
      }
      for (const s of states) expect(Object.values(table).some((t) => t.to === s)).toBe(true);
    };
    check(CONTRIBUTION_MOVES, CONTRIBUTION_STATES);
    check(CASHOUT_MOVES, CASHOUT_STATES);
    check(WITHDRAWAL_MOVES, WITHDRAWAL_STATES);
  });

  it('never leave a final state: paid, rejected, cancelled, issued, failed and not_sent are ends', () => {
    for (const end of ['paid', 'rejected', 'cancelled'] as const) {
      expect(Object.values(CASHOUT_MOVES).some((t) => (t.from as readonly string[]).includes(end))).toBe(false);
    }
    expect(Object.values(CONTRIBUTION_MOVES).some((t) => (t.from as readonly string[]).includes('issued'))).toBe(false);
    for (const end of ['completed', 'failed', 'not_sent'] as const) {
      expect(Object.values(WITHDRAWAL_MOVES).some((t) => (t.from as readonly string[]).includes(end))).toBe(false);
    }
    // A withdrawal is completed only from its own evidence (its job or its id) or a treasurer's hand.
    expect(allowed(WITHDRAWAL_MOVES, 'sending', 'completed')).toBeUndefined();
    expect(allowed(WITHDRAWAL_MOVES, 'unresolved', 'completed')?.ledger).toBe('fund_withdrawal');
  });

  it('write every state of a fund record from a table row, never from a literal in SQL', () => {
    const literal =
      /(UPDATE\s+fund_(?:contributions|cashouts|withdrawals)\s+SET[\s\S]*?\bstate\s*=\s*'|INSERT INTO fund_(?:contributions|cashouts|withdrawals)\b[\s\S]*?VALUES\s*\([^)]*'(?:pending|issued|cancelled|awaiting_approval|redeemed|withdrawing|withdrawn|paid|rejected|sending|submitted|unknown|unresolved|completed|failed|not_sent)')/;
    const offending = statements(REPO).filter((sql) => literal.test(sql));
    expect(offending).toEqual([]);
    // Every UPDATE of a record's state names its from-states through the table (`IN (...)` built by sqlList or a
    // row read in the same transaction), so a move the table does not allow changes nothing.
    const updates = statements(REPO).filter((sql) =>
      /UPDATE\s+fund_(contributions|cashouts|withdrawals)\s+SET\s+state/.test(sql),
    );
    expect(updates.length).toBeGreaterThan(0);
    for (const sql of updates) expect(sql).toMatch(/AND state (IN \$\{sqlList\(|= \?)/);
  });

  it('are moved by the service through named moves only', () => {
    const text = readFileSync(SERVICE, 'utf8');
    expect(text).not.toMatch(/moveWithdrawal\([^)]*\[/);
    for (const [, move] of text.matchAll(/moveWithdrawal\(\s*[\w.]+,\s*(?:[^,]*\?\s*)?'(\w+)'/g)) {
      expect(Object.keys(WITHDRAWAL_MOVES)).toContain(move);
    }
  });
});

describe("a proposal's state moves only through its table", () => {
  it('names only proposal states, and every state is entered by some move', () => {
    for (const t of Object.values(PROPOSAL_MOVES)) {
      expect(PROPOSAL_STATES).toContain(t.to);
      for (const f of t.from) expect(PROPOSAL_STATES).toContain(f);
    }
    for (const s of PROPOSAL_STATES) expect(Object.values(PROPOSAL_MOVES).some((t) => t.to === s)).toBe(true);
    for (const end of ['placed', 'closed', 'rejected', 'expired'] as const) {
      expect(Object.values(PROPOSAL_MOVES).some((t) => (t.from as readonly string[]).includes(end))).toBe(false);
    }
  });

  it('is moved everywhere by a named move, never by states given as literals', () => {
    const sources = botSources();
    const offending = sources.flatMap(({ file, text }) =>
      [
        ...literalProposalMoves(text),
        ...(file.endsWith('betting/proposals.ts') ? literalProposalMoves(text, 'this') : []),
      ].map((call) => `${file}: ${call}`),
    );
    expect(offending).toEqual([]);
    // It reads the callers: the approvals move proposals, and so does the repository's expiry.
    expect(sources.filter(({ text }) => /proposals\.move\(/.test(text)).length).toBeGreaterThan(0);
    // The check fails on a literal move, and on a name the table does not have.
    expect(literalProposalMoves("await this.d.proposals.move(p.proposalId, ['placing'], 'placed', now);")).toHaveLength(
      1,
    );
    expect(literalProposalMoves("await this.d.proposals.move(p.proposalId, 'teleport', now);")).toHaveLength(1);
    expect(literalProposalMoves('await this.d.proposals.move(p.proposalId, to, now);')).toHaveLength(1);
    expect(literalProposalMoves("await this.d.proposals.move(p.proposalId, 'markPlaced', now);")).toEqual([]);
  });

  it('writes a state in SQL only from a table row, never from a literal', () => {
    // A literal state in a SET clause (before WHERE) or in the values an INSERT writes (before its WHERE).
    const literal =
      /(UPDATE\s+proposals\s+SET(?:(?!WHERE)[\s\S])*\bstate\s*=\s*'|INSERT INTO proposals\b(?:(?!WHERE)[\s\S])*'(?:open|placing|placed|closed|rejected|expired)')/;
    const offending = statements(PROPOSALS).filter((sql) => literal.test(sql));
    expect(offending).toEqual([]);
    const updates = statements(PROPOSALS).filter((sql) => /UPDATE\s+proposals\s+SET\s+state/.test(sql));
    expect(updates).toHaveLength(1);
  });
});
