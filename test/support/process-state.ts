// What a test file could leave behind it in a worker process it shares with other files: environment, process
// listeners, patched output streams, undici's global dispatcher, fetch, fake timers, the working directory.
const SIGNALS = ['SIGTERM', 'SIGINT', 'uncaughtException', 'unhandledRejection', 'exit', 'beforeExit'] as const;
const UNDICI_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

export interface ProcessState {
  env: Record<string, string | undefined>;
  listeners: Record<string, number>;
  stdoutWrite: unknown;
  stderrWrite: unknown;
  dispatcher: unknown;
  fetch: unknown;
  Date: unknown;
  cwd: string;
}

export function snapshot(): ProcessState {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('VITEST')) env[k] = v;
  return {
    env,
    listeners: Object.fromEntries(SIGNALS.map((s) => [s, process.listenerCount(s)])),
    stdoutWrite: process.stdout.write,
    stderrWrite: process.stderr.write,
    dispatcher: (globalThis as Record<symbol, unknown>)[UNDICI_DISPATCHER],
    fetch: globalThis.fetch,
    Date: globalThis.Date,
    cwd: process.cwd(),
  };
}

/** What changed between two snapshots, one line each. */
export function leftBehind(before: ProcessState, after: ProcessState, fakeTimers: boolean): string[] {
  const out: string[] = [];
  for (const k of new Set([...Object.keys(before.env), ...Object.keys(after.env)])) {
    if (before.env[k] !== after.env[k]) out.push(`process.env.${k} changed`);
  }
  for (const s of SIGNALS) {
    if ((after.listeners[s] ?? 0) > (before.listeners[s] ?? 0)) out.push(`a process '${s}' listener was left on`);
  }
  if (after.stdoutWrite !== before.stdoutWrite) out.push('process.stdout.write was left patched');
  if (after.stderrWrite !== before.stderrWrite)
    out.push('process.stderr.write was left patched (a log capture not stopped)');
  // (The first request makes the default one: only a replacement of a dispatcher already there counts.)
  if (before.dispatcher !== undefined && after.dispatcher !== before.dispatcher) {
    out.push("undici's global dispatcher was replaced");
  }
  if (after.fetch !== before.fetch) out.push('globalThis.fetch was replaced');
  if (after.Date !== before.Date || fakeTimers) out.push('fake timers or a replaced Date were left on');
  if (after.cwd !== before.cwd) out.push('the working directory changed');
  return out;
}
