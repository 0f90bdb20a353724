import { describe, expect, it } from 'vitest';
import { backoffMs, parseRetryAfter } from '../../../src/gateway/internal/retry-after.js';

describe('Retry-After and backoff', () => {
  it('reads delta seconds and HTTP dates, and ignores junk', () => {
    expect(parseRetryAfter('3')).toBe(3_000);
    expect(parseRetryAfter(['0.5'])).toBe(500);
    const now = Date.parse('2026-11-21T10:00:00Z');
    expect(parseRetryAfter('Sat, 21 Nov 2026 10:00:07 GMT', now)).toBe(7_000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });

  it('grows exponentially with jitter inside [ceiling/2, ceiling] and stays under the cap', () => {
    expect(backoffMs(1, 250, 8_000, () => 0)).toBe(125);
    expect(backoffMs(1, 250, 8_000, () => 1)).toBe(250);
    expect(backoffMs(3, 250, 8_000, () => 1)).toBe(1_000);
    expect(backoffMs(20, 250, 8_000, () => 1)).toBe(8_000);
  });
});
