// Which interaction token may edit a message (decision 2030): only a press answered with an update makes the
// pressed message the interaction's original, and only for the token's life.
import { describe, expect, it } from 'vitest';
import { callbackTypeOf, InteractionEdits, TOKEN_LIFE_MS } from '../../../src/bot/discord/interaction-edits.js';

function clocked() {
  let t = 1_000;
  const edits = new InteractionEdits(() => t);
  return { edits, at: (ms: number) => (t = ms) };
}

describe('interaction tokens for editing a pressed message', () => {
  it('keeps the token of a press answered with a deferred update', () => {
    const { edits } = clocked();
    edits.pressed('i1', 'm1', 'app', 'tok1');
    edits.acknowledged('i1', 6);
    expect(edits.tokenFor('m1')).toEqual({ applicationId: 'app', token: 'tok1' });
  });

  it('keeps none for a press answered with a new reply (its original is another message)', () => {
    const { edits } = clocked();
    edits.pressed('i1', 'm1', 'app', 'tok1');
    edits.acknowledged('i1', 5);
    expect(edits.tokenFor('m1')).toBeUndefined();
  });

  it('keeps none for a press never acknowledged', () => {
    const { edits } = clocked();
    edits.pressed('i1', 'm1', 'app', 'tok1');
    edits.finished('i1');
    edits.acknowledged('i1', 6);
    expect(edits.tokenFor('m1')).toBeUndefined();
    expect(edits.size).toBe(0);
  });

  it('lets a token go once it is older than its life', () => {
    const { edits, at } = clocked();
    edits.pressed('i1', 'm1', 'app', 'tok1');
    edits.acknowledged('i1', 7);
    at(1_000 + TOKEN_LIFE_MS - 1);
    expect(edits.tokenFor('m1')?.token).toBe('tok1');
    at(1_000 + TOKEN_LIFE_MS);
    expect(edits.tokenFor('m1')).toBeUndefined();
  });

  it('sweeps expired tokens of other messages when a new one is kept', () => {
    const { edits, at } = clocked();
    edits.pressed('i1', 'm1', 'app', 'tok1');
    edits.acknowledged('i1', 6);
    at(1_000 + TOKEN_LIFE_MS + 5);
    edits.pressed('i2', 'm2', 'app', 'tok2');
    edits.acknowledged('i2', 6);
    expect(edits.size).toBe(1);
  });

  it('uses the newest press of a message, and forgets a token Discord refused', () => {
    const { edits } = clocked();
    for (const [i, tok] of [
      ['i1', 'tok1'],
      ['i2', 'tok2'],
    ]) {
      edits.pressed(i!, 'm1', 'app', tok!);
      edits.acknowledged(i!, 6);
    }
    expect(edits.tokenFor('m1')?.token).toBe('tok2');
    edits.refused('m1', 'tok1');
    expect(edits.tokenFor('m1')?.token).toBe('tok2');
    edits.refused('m1', 'tok2');
    expect(edits.tokenFor('m1')).toBeUndefined();
  });

  it('reads the callback type from the start of its JSON body', () => {
    expect(callbackTypeOf('{"type":6}')).toBe(6);
    expect(callbackTypeOf('{"type":7,"data":{"content":"x"}}')).toBe(7);
    expect(callbackTypeOf('{"data":{"type":6}}')).toBeUndefined();
    expect(callbackTypeOf(undefined)).toBeUndefined();
  });
});
