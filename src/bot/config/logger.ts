import pino from 'pino';
import type { LogLevel } from './config.js';
import type { Secret } from './secret.js';

const HIDDEN = '[redacted]';

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /**
   * A logger whose every line carries these fields too: one per interaction (its id, the command, the user)
   * or per job (its correlation id), so one bet's lines can be found together.
   */
  child(fields: Record<string, unknown>): Logger;
  /** Redacts the secrets from any text (also used for messages shown to users). */
  redact(text: string): string;
}

export interface LoggerOptions {
  level?: LogLevel;
  secrets?: Array<Secret | string | undefined>;
  write?: (line: string) => void;
}

function errorFields(err: Error): Record<string, unknown> {
  return { name: err.name, message: err.message, stack: err.stack };
}

/**
 * One JSON line per entry (pino) on stderr; every secret value is replaced wherever it appears. Secrets are
 * replaced in the raw values, before JSON escaping: a secret holding a quote, a backslash or a tab looks
 * different once escaped, so redacting the serialised line alone would miss it. The finished line is
 * redacted once more as a backstop.
 */
export function createLogger(opts: LoggerOptions = {}): Logger {
  const values = (opts.secrets ?? [])
    .map((s) => (s === undefined ? '' : typeof s === 'string' ? s : s.reveal()))
    .filter((s) => s.length >= 4);
  const write = opts.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const redact = (text: string): string => {
    let out = text;
    for (const v of values) out = out.split(v).join(HIDDEN);
    return out;
  };
  const scrub = (v: unknown, depth = 0): unknown => {
    if (typeof v === 'string') return redact(v);
    if (typeof v === 'bigint') return v.toString();
    if (v === null || typeof v !== 'object' || depth > 8) return v;
    if (v instanceof Error) return scrub(errorFields(v), depth + 1);
    if (Array.isArray(v)) return v.map((x) => scrub(x, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = scrub(x, depth + 1);
    return out;
  };
  const base = pino(
    {
      level: opts.level ?? 'info',
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      // No serializers of pino's own: the scrub below turns errors into plain fields and redacts every string.
      serializers: { err: (e: unknown) => e },
      formatters: {
        level: (label) => ({ level: label }),
        bindings: (bindings) => scrub(bindings) as Record<string, unknown>,
        log: (obj) => scrub(obj) as Record<string, unknown>,
      },
    },
    {
      write(line: string) {
        write(redact(line.endsWith('\n') ? line.slice(0, -1) : line));
      },
    },
  );
  // A child's bindings are serialised (and scrubbed) only when it first writes a line: the router makes one per
  // interaction before its acknowledgement, and most interactions log nothing at the configured level.
  const wrap = (make: () => pino.Logger): Logger => {
    let made: pino.Logger | undefined;
    const p = () => {
      made ??= make();
      return made;
    };
    const at =
      (level: 'debug' | 'info' | 'warn' | 'error') =>
      (m: string, f?: Record<string, unknown>): void => {
        if (base.isLevelEnabled(level)) p()[level](f ?? {}, redact(m));
      };
    return {
      debug: at('debug'),
      info: at('info'),
      warn: at('warn'),
      error: at('error'),
      child: (fields) => wrap(() => p().child(fields)),
      redact,
    };
  };
  return wrap(() => base);
}

/** A logger that prints nothing (tests, tools). */
export const silentLogger: Logger = createLogger({ level: 'error', write: () => {} });
