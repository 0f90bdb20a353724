import { describe, expect, it } from 'vitest';
import { isVisibleTo } from '../../../src/local-discord/playground/visibility.js';

describe('who sees a message in the playground', () => {
  it('shows a normal message to everyone', () => {
    expect(isVisibleTo({ id: '1', flags: 0, visibleTo: null }, 'u2')).toBe(true);
  });

  it('shows an ephemeral message only to the user it was for', () => {
    const m = { id: '1', flags: 64, visibleTo: 'u1' };
    expect(isVisibleTo(m, 'u1')).toBe(true);
    expect(isVisibleTo(m, 'u2')).toBe(false);
  });

  it('falls back to the interaction metadata when the owner is not recorded', () => {
    const m = { id: '1', flags: 64, interaction_metadata: { user: { id: 'u1' } } };
    expect(isVisibleTo(m, 'u1')).toBe(true);
    expect(isVisibleTo(m, 'u3')).toBe(false);
  });
});
