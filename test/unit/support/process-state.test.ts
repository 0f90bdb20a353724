import { describe, expect, it } from 'vitest';
import { leftBehind, snapshot } from '../../support/process-state.js';

describe('what a file sharing its worker leaves behind (the shared-graph guard)', () => {
  it('reports nothing when the process is as it was', () => {
    const before = snapshot();
    expect(leftBehind(before, snapshot(), false)).toEqual([]);
  });

  it('names an environment variable a file set and did not unset', () => {
    const before = snapshot();
    const after = { ...before, env: { ...before.env, DESK_LEFT_OVER: '1' } };
    expect(leftBehind(before, after, false)).toEqual(['process.env.DESK_LEFT_OVER changed']);
  });

  it('names a SIGTERM listener left on', () => {
    const before = snapshot();
    const after = { ...before, listeners: { ...before.listeners, SIGTERM: (before.listeners.SIGTERM ?? 0) + 1 } };
    expect(leftBehind(before, after, false)).toEqual(["a process 'SIGTERM' listener was left on"]);
  });

  it('names a log capture that still patches stderr', () => {
    const before = snapshot();
    const after = { ...before, stderrWrite: () => true };
    expect(leftBehind(before, after, false)).toEqual([
      'process.stderr.write was left patched (a log capture not stopped)',
    ]);
  });

  it('names fake timers left on', () => {
    const before = snapshot();
    expect(leftBehind(before, snapshot(), true)).toEqual(['fake timers or a replaced Date were left on']);
  });
});
