import { describe, expect, it } from 'vitest';
import { COMPONENTS } from '../../../src/bot/controls.js';
import { COMPONENT_OWNERS } from '../../../src/bot/owners.js';

describe('component owners', () => {
  it('names the owner lookup of every scope a handler answers, so the router can check each click', () => {
    const scopes = new Set(Object.keys(COMPONENTS).map((k) => k.split(':')[0]));
    expect([...scopes].filter((s) => !(s && s in COMPONENT_OWNERS))).toEqual([]);
  });
});
