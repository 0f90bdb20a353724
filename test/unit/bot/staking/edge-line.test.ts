import { describe, expect, it } from 'vitest';
import { edgeFields, fairLine, formatEdge } from '../../../../src/bot/betting/views/edge.js';

describe('the fair-price line on a slip', () => {
  it('names the fair price, the method, the books and the edge', () => {
    const line = fairLine({ method: 'multiplicative', fairOdds: 2.0488, books: 3, edge: 0.0244 });
    expect(line).toBe('Fair 2.05 (no-vig multiplicative, 3 books) · edge +2.4%');
  });

  it('shows a negative edge as plainly', () => {
    expect(fairLine({ method: 'shin', fairOdds: 2.2, books: 1, edge: -0.0455 })).toBe(
      'Fair 2.20 (no-vig Shin, 1 book) · edge -4.5%',
    );
  });

  it('says when no book has a complete market', () => {
    expect(fairLine({ method: 'power', books: 0 })).toBe(
      'No complete market at any book: no fair price (no-vig power).',
    );
  });

  it('rounds the edge to one decimal with its sign', () => {
    expect(formatEdge(0)).toBe('+0.0%');
    expect(formatEdge(-0.00049)).toBe('+0.0%');
    expect(formatEdge(0.1234)).toBe('+12.3%');
  });

  it('shows the suggested stake with the fraction and the bank', () => {
    const fields = edgeFields({
      edge: { method: 'multiplicative', fairOdds: 2, books: 2, edge: 0.1, suggestedCents: 2500, kellyFraction: 0.25 },
      capBankCents: 100_000,
    });
    expect(fields.map((f) => f.value)).toEqual([
      'Fair 2.00 (no-vig multiplicative, 2 books) · edge +10.0%',
      '$25.00 (0.25 Kelly of the $1,000.00 bank)',
    ]);
  });
});

describe('the edge at the price a message shows', () => {
  it('is worked out again from the fair probability kept on the slip', () => {
    const slip = {
      edge: { method: 'multiplicative' as const, fairOdds: 2, fairProbability: 0.5, books: 3, edge: 0.05 },
    };
    expect(edgeFields(slip, 1.96)[0]?.value).toBe('Fair 2.00 (no-vig multiplicative, 3 books) · edge -2.0%');
  });
});
