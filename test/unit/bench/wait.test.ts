import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { untilEvent } from '../../../bench/lib/wait.js';

type Events = { change: [{ id: number }] };

describe('untilEvent', () => {
  it('answers at once from the state as it is, without waiting for an event', async () => {
    const emitter = new EventEmitter<Events>();
    await expect(untilEvent(emitter, ['change'], () => 'there', 1_000, 'x')).resolves.toBe('there');
    expect(emitter.listenerCount('change')).toBe(0);
  });

  it('answers with the first event the pick takes, passing over others, and stops listening', async () => {
    const emitter = new EventEmitter<Events>();
    const waiting = untilEvent(
      emitter,
      ['change'],
      (e?: { id: number }) => (e?.id === 2 ? e.id : undefined),
      1_000,
      'x',
    );
    emitter.emit('change', { id: 1 });
    emitter.emit('change', { id: 2 });
    await expect(waiting).resolves.toBe(2);
    expect(emitter.listenerCount('change')).toBe(0);
  });

  it('fails naming what it waited for when no event answers in time, and stops listening', async () => {
    const emitter = new EventEmitter<Events>();
    await expect(untilEvent(emitter, ['change'], () => undefined, 20, 'the slip')).rejects.toThrow(
      'timed out after 20 ms waiting for the slip',
    );
    expect(emitter.listenerCount('change')).toBe(0);
  });
});
