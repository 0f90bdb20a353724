// /fund export opened as a spreadsheet would open it (issue 32, item 5): parsed by an RFC 4180 reader, every numeric
// column is a plain number, the member's name sits beside their id, a strike row gives NAV before and after dealing,
// and a contribution's row names the strike that dealt it and its dealing.
import { describe, expect, it } from 'vitest';
import { FEE_MANAGER_UNSET } from '../../../src/bot/fund/model/fund.js';
import type { Cashout, Contribution } from '../../../src/bot/fund/model/fund-records.js';
import { FUND_CSV_COLUMNS, fundCsv } from '../../../src/bot/fund/views/fund.js';
import { strikeFixture } from '../../support/fund-fixtures.js';

/** RFC 4180: fields split by commas, records by CRLF; a quoted field may hold commas, CRLF and doubled quotes. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') {
      if (field !== '') throw new Error(`a quote inside an unquoted field at ${i}`);
      quoted = true;
    } else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else if (ch === '\n' || ch === '\r') throw new Error(`a bare line break at ${i}`);
    else field += ch;
  }
  if (quoted) throw new Error('an unclosed quote');
  if (field !== '' || record.length > 0) throw new Error('the last record does not end with CRLF');
  return records;
}

const U = 1_000_000;
const T = Date.parse('2026-11-27T15:17:30Z');
const ANN = '1200000000000000011';
const BEN = '1200000000000000012';
const SESSION_A = '5e55a1fa-0000-4000-8000-00000000000a';

const strike = strikeFixture;

const strikes = [
  strike({ strikeId: 'fs-1' }),
  // A winning week, then Ben's $1,250.50 dealt at $1.086666 a unit: NAV $1,738.66 before dealing, $2,989.16 after.
  strike({
    strikeId: 'fs-2',
    dealingKey: '2026-11-28',
    at: T + 86_400_000,
    navCents: 173_866,
    price: 108_666_600,
    navAfterCents: 298_916,
    unitsBefore: 1600 * U,
    unitsAfter: 2750_775_917,
    feeCents: 1_234,
  }),
];
const contributions = [
  {
    contributionId: 'fc-1',
    memberId: ANN,
    amountCents: 160_000,
    sessionId: SESSION_A,
    reference: 'transfer, "0412"',
    state: 'issued',
    strikeId: 'fs-1',
    units: 1600 * U,
    depositId: 'dep-7',
    note: null,
    createdAt: T - 60_000,
  },
  {
    contributionId: 'fc-2',
    memberId: BEN,
    amountCents: 125_050,
    sessionId: SESSION_A,
    reference: null,
    state: 'issued',
    strikeId: 'fs-2',
    units: 1150_775_917,
    depositId: 'dep-8',
    note: null,
    createdAt: T,
  },
] as Contribution[];
const cashouts = [
  {
    cashoutId: 'fo-1',
    memberId: ANN,
    ask: { kind: 'amount', cents: 25_000 },
    state: 'pending',
    approvedBy: null,
    strikeId: null,
    units: null,
    cents: null,
    note: null,
    requestedAt: T + 90_000_000,
  },
  {
    cashoutId: 'fee-1',
    memberId: FEE_MANAGER_UNSET,
    ask: { kind: 'fee' },
    state: 'redeemed',
    approvedBy: null,
    strikeId: 'fs-2',
    units: 0,
    cents: 1_234,
    note: null,
    requestedAt: T + 86_400_000,
  },
] as Cashout[];

const exported = () =>
  parseCsv(
    fundCsv({
      contributions,
      cashouts,
      strikes,
      names: new Map([
        [ANN, 'Ann, treasurer'],
        [BEN, '=Ben'],
      ]),
      accountOf: (id) => (id === SESSION_A ? 'bookie_a/alpha_a' : undefined),
    }),
  );
const NUMERIC = ['amount', 'units', 'price', 'nav_before', 'nav_after', 'fee'] as const;

describe('/fund export as a spreadsheet reads it', () => {
  it('parses as RFC 4180 with one header and a row per strike, contribution and cash-out, each as wide as the header', () => {
    const [head, ...rows] = exported();
    expect(head).toEqual([...FUND_CSV_COLUMNS]);
    expect(rows).toHaveLength(strikes.length + contributions.length + cashouts.length);
    for (const row of rows) expect(row).toHaveLength(FUND_CSV_COLUMNS.length);
  });

  it('writes every numeric column as a plain number: no $ sign, no thousands separator', () => {
    const [head, ...rows] = exported();
    let seen = 0;
    for (const row of rows) {
      for (const column of NUMERIC) {
        const cell = row[head!.indexOf(column)] ?? '';
        if (cell === '') continue;
        seen++;
        expect(cell, `${column} of ${row[1]}`).toMatch(/^-?\d+(\.\d+)?$/);
        expect(Number.isFinite(Number(cell))).toBe(true);
      }
    }
    expect(seen).toBeGreaterThanOrEqual(14);
  });

  it('keeps money and units exact: cents to two decimals, units and price to six', () => {
    const [head, ...rows] = exported();
    const row = (id: string) => Object.fromEntries(head!.map((h, i) => [h, rows.find((r) => r[1] === id)?.[i]]));
    expect(row('fs-2')).toMatchObject({
      price: '1.086666',
      nav_before: '1738.66',
      nav_after: '2989.16',
      units: '2750.775917',
      fee: '12.34',
    });
    expect(row('fc-2')).toMatchObject({ amount: '1250.50', units: '1150.775917' });
  });

  it('puts the member name beside the member id, and the manager by name', () => {
    const [head, ...rows] = exported();
    const col = (r: string[], h: string) => r[head!.indexOf(h)];
    const ann = rows.find((r) => r[1] === 'fc-1')!;
    expect([col(ann, 'member_id'), col(ann, 'member_name')]).toEqual([ANN, 'Ann, treasurer']);
    // A name that starts like a formula is defused, not run.
    expect(col(rows.find((r) => r[1] === 'fc-2')!, 'member_name')).toBe("'=Ben");
    expect(col(rows.find((r) => r[1] === 'fee-1')!, 'member_name')).toBe('the manager');
  });

  it('names the strike that dealt a row and its dealing, and gives a strike NAV before and after dealing', () => {
    const [head, ...rows] = exported();
    const col = (id: string, h: string) => rows.find((r) => r[1] === id)?.[head!.indexOf(h)];
    expect([col('fc-2', 'strike_id'), col('fc-2', 'dealing'), col('fc-2', 'price')]).toEqual([
      'fs-2',
      'dealing day 2026-11-28',
      '1.086666',
    ]);
    expect([col('fs-1', 'dealing'), col('fs-1', 'nav_before'), col('fs-1', 'nav_after')]).toEqual([
      'on demand',
      '1600.00',
      '1600.00',
    ]);
    expect(col('fc-1', 'account')).toBe('bookie_a/alpha_a');
    expect(col('fc-1', 'reference')).toBe('transfer, "0412"');
    expect(col('fo-1', 'strike_id')).toBe('');
  });
});
