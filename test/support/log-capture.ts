/**
 * Collects what the process writes to stderr while a desk runs (the bot logs JSON lines to stderr),
 * so tests can check that no secret ever reaches a log. Output is kept, not printed, unless E2E_LOGS=1.
 */
export interface LogCapture {
  readonly lines: string[];
  stop(): void;
}

export function captureLogs(): LogCapture {
  const lines: string[] = [];
  const original = process.stderr.write;
  const echo = process.env.E2E_LOGS === '1';
  const wrap = (original: typeof process.stderr.write, stream: NodeJS.WriteStream) =>
    function (this: unknown, chunk: unknown, ...rest: unknown[]) {
      lines.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      if (echo) return (original as (...a: unknown[]) => boolean).call(stream, chunk, ...rest);
      const cb = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      cb?.();
      return true;
    } as typeof process.stderr.write;
  process.stderr.write = wrap(original, process.stderr);
  let stopped = false;
  return {
    lines,
    stop() {
      if (stopped) return;
      stopped = true;
      process.stderr.write = original;
    },
  };
}
