import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EventsPage, MarketCard } from '../../../src/gateway/index.js';
import { checked, isPure, shapeCheckOf } from '../../../src/gateway/internal/shape-check.js';

const Row = z.looseObject({
  id: z.string(),
  odds: z.number().nullable(),
  line: z.number().nullish(),
  tier: z.enum(['popular', 'other']),
  kind: z.literal('single').optional(),
  amount: z.union([z.number(), z.string()]),
  tags: z.array(z.string()).optional(),
  extra: z.unknown(),
  note: z.string().min(2).optional(),
  strict: z.strictObject({ a: z.number() }).optional(),
});
const Page = z.looseObject({ rows: z.array(Row), next: z.string().nullable().optional() });

const good = {
  rows: [{ id: 'r1', odds: 1.9, line: null, tier: 'popular', kind: 'single', amount: '5', extra: 1, future: true }],
  next: null,
  generated_at: 'x',
};

/** Values that differ from `good` in one place each, some valid and some not. */
const variants: [string, (p: typeof good & Record<string, unknown>) => void][] = [
  ['unchanged', () => {}],
  ['id missing', (p) => delete (p.rows[0] as Record<string, unknown>).id],
  ['id a number', (p) => Object.assign(p.rows[0]!, { id: 3 })],
  ['odds missing', (p) => delete (p.rows[0] as Record<string, unknown>).odds],
  ['line undefined', (p) => Object.assign(p.rows[0]!, { line: undefined })],
  ['tier outside the enum', (p) => Object.assign(p.rows[0]!, { tier: 'unmapped' })],
  ['kind another literal', (p) => Object.assign(p.rows[0]!, { kind: 'multi' })],
  ['amount a boolean', (p) => Object.assign(p.rows[0]!, { amount: true })],
  ['tags with a number', (p) => Object.assign(p.rows[0]!, { tags: ['a', 1] })],
  ['extra absent (required unknown)', (p) => delete (p.rows[0] as Record<string, unknown>).extra],
  ['note too short (refinement)', (p) => Object.assign(p.rows[0]!, { note: 'x' })],
  ['note long enough', (p) => Object.assign(p.rows[0]!, { note: 'xyz' })],
  ['strict object with an unknown key', (p) => Object.assign(p.rows[0]!, { strict: { a: 1, b: 2 } })],
  ['strict object exact', (p) => Object.assign(p.rows[0]!, { strict: { a: 1 } })],
  ['rows not an array', (p) => Object.assign(p, { rows: {} })],
  ['row an array', (p) => Object.assign(p, { rows: [[]] })],
  ['row null', (p) => Object.assign(p, { rows: [null] })],
  ['odds infinite', (p) => Object.assign(p.rows[0]!, { odds: Number.POSITIVE_INFINITY })],
  ['next a number', (p) => Object.assign(p, { next: 1 })],
];

describe('generated shape check', () => {
  const check = shapeCheckOf(Page)!;

  for (const [name, change] of variants) {
    it(`agrees with zod when ${name}`, () => {
      const value = structuredClone(good) as typeof good & Record<string, unknown>;
      change(value);
      expect(check(value)).toBe(Page.safeParse(value).success);
    });
  }

  it('agrees with zod on strict objects and non-empty strings (request schemas)', () => {
    const Query = z.strictObject({ epk: z.string().min(1), bookie: z.string().min(1), tier: z.string().optional() });
    const q = shapeCheckOf(Query)!;
    for (const value of [
      { epk: 'e', bookie: 'b' },
      { epk: 'e', bookie: 'b', tier: 'popular' },
      { epk: 'e', bookie: 'b', extra: 1 },
      { epk: '', bookie: 'b' },
      { epk: 'e' },
      { epk: 'e', bookie: 'b', tier: 3 },
    ]) {
      expect(q(value)).toBe(Query.safeParse(value).success);
    }
  });

  it('never changes or copies the value it checks', () => {
    const value = structuredClone(good);
    const before = JSON.stringify(value);
    expect(check(value)).toBe(true);
    expect(JSON.stringify(value)).toBe(before);
  });

  it('refuses to stand in for schemas that reshape their input', () => {
    expect(shapeCheckOf(z.object({ n: z.string().transform(Number) }))).toBeUndefined();
    expect(shapeCheckOf(z.object({ n: z.number().default(1) }))).toBeUndefined();
    expect(shapeCheckOf(z.object({ n: z.coerce.number() }))).toBeUndefined();
    expect(shapeCheckOf(z.looseObject({ s: z.string().trim() }))).toBeUndefined();
    expect(shapeCheckOf(z.object({ s: z.string() }))).toBeUndefined(); // strips unknown keys
    expect(shapeCheckOf(z.looseObject({ s: z.string() }))).toBeDefined();
    expect(isPure(Page)).toBe(true);
  });
});

describe('checked schemas', () => {
  const Checked = checked(Page);

  it('hand back the very value parsed, unknown fields and all', () => {
    const value = structuredClone(good);
    const parsed = Checked.safeParse(value);
    expect(parsed.success).toBe(true);
    expect(parsed.data).toBe(value);
    expect(parsed.data).toHaveProperty('generated_at', 'x');
  });

  it("report a refused value with zod's field paths", () => {
    const value = structuredClone(good);
    Object.assign(value.rows[0]!, { tier: 'nope' });
    const parsed = Checked.safeParse(value);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['rows', 0, 'tier']);
  });

  it('cannot wrap a schema with a transform', () => {
    expect(() => checked(z.object({ n: z.string().transform(Number) }))).toThrow(/without transforms/);
  });

  it('are what the client exports for the events page and the market card', () => {
    const card = { epk: 'e', bookie: 'b', bound: true, market_ref_betting_enabled: true, markets: [], later: 1 };
    expect(MarketCard.safeParse(card).data).toBe(card);
    expect(MarketCard.safeParse({ ...card, bound: 'yes' }).success).toBe(false);
    const page = { count: 0, data: [], later: 1 };
    expect(EventsPage.safeParse(page).data).toBe(page);
    expect(EventsPage.safeParse({ ...page, data: [{ event_id: 1 }] }).success).toBe(false);
  });
});
