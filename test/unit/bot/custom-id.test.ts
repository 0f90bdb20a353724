import { describe, expect, it } from 'vitest';
import {
  CustomIdError,
  decodeCustomId,
  encodeCustomId,
  safeArg,
  unsafeArg,
} from '../../../src/bot/discord/custom-id.js';

describe('custom id codec', () => {
  it('round-trips scope, action and args under the version prefix', () => {
    const id = encodeCustomId('slip', 'confirm', 'abc123');
    expect(id).toBe('v1:slip:confirm:abc123');
    expect(decodeCustomId(id)).toEqual({ scope: 'slip', action: 'confirm', args: ['abc123'] });
  });

  it('ignores ids of another version or shape', () => {
    expect(decodeCustomId('v0:slip:confirm:x')).toBeUndefined();
    expect(decodeCustomId('random')).toBeUndefined();
    expect(decodeCustomId('v1:slip')).toBeUndefined();
  });

  it('refuses ids longer than Discord allows and parts with a separator', () => {
    expect(() => encodeCustomId('x', 'y', 'a'.repeat(100))).toThrow(CustomIdError);
    expect(() => encodeCustomId('x', 'y', 'a:b')).toThrow(/character/);
  });

  it('makes free text safe as one part and back', () => {
    const league = "Rugby Union (men's): A*B!";
    const part = safeArg(league);
    expect(() => encodeCustomId('ev', 'page', part)).not.toThrow();
    expect(unsafeArg(part)).toBe(league);
  });
});
