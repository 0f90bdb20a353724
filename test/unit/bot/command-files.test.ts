import { describe, expect, it } from 'vitest';
import { commandFiles } from '../../../src/bot/loader.js';

describe('command files the loader picks', () => {
  const listing = ['markets.js', 'markets.js.map', 'bet.ts', 'bet.js', 'bet.d.ts', 'README.md', 'events.js'];

  it('takes only compiled .js modules when running compiled (no maps, no sources)', () => {
    expect(commandFiles(listing, '.js')).toEqual(['bet.js', 'events.js', 'markets.js']);
  });

  it('takes only .ts sources under tsx, never a declaration file', () => {
    expect(commandFiles(listing, '.ts')).toEqual(['bet.ts']);
  });
});
