import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  canonicalJson,
  chainStaged,
  GENESIS,
  Ledger,
  type LedgerInput,
  ledgerCsv,
  stageInTx,
} from '../../../src/bot/ledger/ledger-repo.js';
import { type BotStore, openStore } from '../../../src/bot/store/index.js';
import { ENGINES, freshStoreUrl } from '../../pg/engines.js';

let dir: string;
let store: BotStore;
let ledger: Ledger;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-'));
  store = await openStore(`sqlite://${join(dir, 'bot.sqlite')}`);
  ledger = new Ledger(store);
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const entry = (i: number): LedgerInput => ({
  at: 1_700_000_000_000 + i,
  guildKey: 'g1',
  kind: 'hold',
  ref: `p${i}`,
  actor: 'u1',
  amountCents: 100 + i,
  data: { i, nested: { b: 2, a: 1 } },
});

describe('the hash-chained ledger on SQLite', () => {
  it('writes canonical JSON: the same value gives the same text whatever the key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 0, y: null }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[1,{"y":null,"z":0}]},"b":1}',
    );
  });

  it('chains each entry to the one before, from the genesis hash', async () => {
    const first = await ledger.append(entry(1));
    const second = await ledger.append(entry(2));
    expect(first.prevHash).toBe(GENESIS);
    expect(second.prevHash).toBe(first.hash);
    expect(await ledger.verify()).toEqual({ ok: true, entries: 2, head: second.hash });
  });

  it('keeps one chain when 50 appends race (the sequence number decides, no entry lost)', async () => {
    await Promise.all(Array.from({ length: 50 }, (_, i) => ledger.append(entry(i))));
    const result = await ledger.verify();
    expect(result.ok && result.entries).toBe(50);
  });

  it('names a changed entry, a deleted entry and a relinked entry', async () => {
    for (let i = 1; i <= 5; i++) await ledger.append(entry(i));
    await store.query('UPDATE ledger SET data = \'{"i":99}\' WHERE seq = 3');
    expect(await ledger.verify()).toMatchObject({ ok: false, seq: 3, reason: expect.stringMatching(/changed/) });
    await store.query('DELETE FROM ledger WHERE seq = 3');
    expect(await ledger.verify()).toMatchObject({ ok: false, seq: 3, reason: 'entry 3 is missing' });
    await store.query("UPDATE ledger SET prev_hash = 'x' WHERE seq = 2");
    expect(await ledger.verify()).toMatchObject({ ok: false, seq: 2, reason: expect.stringMatching(/does not point/) });
  });

  it('exports CSV with amounts in dollars and cells a spreadsheet will not run as formulas', async () => {
    const e = await ledger.append({ ...entry(1), ref: '=HYPERLINK("x")', amountCents: -250 });
    const csv = ledgerCsv([e]);
    const [head, row] = csv.trimEnd().split('\r\n');
    expect(head).toBe('seq,at,kind,ref,actor,amount,data,prev_hash,hash');
    expect(row).toContain('"-2.50"');
    expect(row).toContain(`"'=HYPERLINK(""x"")"`);
  });
});

describe.each(ENGINES)('the ledger appended from two processes on %s', (engine) => {
  let a: BotStore;
  let b: BotStore;
  let cleanup: () => void;
  beforeEach(async () => {
    const fresh = await freshStoreUrl(engine, { migrated: true });
    cleanup = fresh.cleanup;
    a = await openStore(fresh.url);
    b = await openStore(fresh.url);
  });
  afterEach(async () => {
    await a.close();
    await b.close();
    cleanup();
  });

  it('keeps one unbroken chain with every entry when two stores append 100 each at once', async () => {
    const [la, lb] = [new Ledger(a), new Ledger(b)];
    const written = await Promise.all([
      ...Array.from({ length: 100 }, (_, i) => la.append(entry(i))),
      ...Array.from({ length: 100 }, (_, i) => lb.append(entry(100 + i))),
    ]);
    expect(new Set(written.map((e) => e.seq)).size).toBe(200);
    expect(await la.verify()).toMatchObject({ ok: true, entries: 200 });
  });

  it('chains every entry staged by two stores exactly once while both chain at once', async () => {
    const stageAndChain = (st: BotStore, i: number) =>
      st.transaction((tx) => stageInTx(tx, [entry(i)])).then(() => chainStaged(st));
    await Promise.all([
      ...Array.from({ length: 100 }, (_, i) => stageAndChain(a, i)),
      ...Array.from({ length: 100 }, (_, i) => stageAndChain(b, 100 + i)),
    ]);
    // Each call resolved after its own entry was chained: the chain holds all 200 before any read chains more.
    const rows = await a.query<{ ref: string }>('SELECT ref FROM ledger ORDER BY seq');
    expect(new Set(rows.map((r) => r.ref)).size).toBe(200);
    expect(rows).toHaveLength(200);
    expect(await a.query('SELECT stage_key FROM ledger_staged')).toEqual([]);
    expect(await new Ledger(b).verify()).toMatchObject({ ok: true, entries: 200 });
  });

  it('chains an entry a crash left staged at the next read, once, after the entries chained before it', async () => {
    const la = new Ledger(a);
    await la.append(entry(1));
    // Committed with its move, then the process died before chaining it.
    await a.transaction((tx) => stageInTx(tx, [entry(2)]));
    const [found] = await new Ledger(b).forRefs(['p2']);
    expect(found).toMatchObject({ seq: 2, ref: 'p2', amountCents: 102 });
    await chainStaged(a);
    expect(await la.verify()).toMatchObject({ ok: true, entries: 2 });
  });
});
