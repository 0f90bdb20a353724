import { describe, expect, it } from 'vitest';
import { fileSize } from '../../../src/local-discord/playground/public/render.js';

describe("a file card's size", () => {
  it('reads as Discord writes it: bytes, then KB and MB to two places', () => {
    expect(fileSize(512)).toEqual({ bytes: 512, unit: 'bytes' });
    expect(fileSize(1618)).toEqual({ bytes: 1.58, unit: 'KB' });
    expect(fileSize(2.4 * 1024 * 1024)).toEqual({ bytes: 2.4, unit: 'MB' });
  });
});
