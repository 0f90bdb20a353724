import type { LogLevel } from './config.js';
import type { Secret } from './secret.js';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const HIDDEN = '[redacted]';

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
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

/** One JSON line per entry on stderr; every secret value is replaced wherever it appears. */
export function createLogger(opts: LoggerOptions = {}): Logger {
  const threshold = ORDER[opts.level ?? 'info'];
  const values = (opts.secrets ?? [])
    .map((s) => (s === undefined ? '' : typeof s === 'string' ? s : s.reveal()))
    .filter((s) => s.length >= 4);
  const write = opts.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const redact = (text: string): string => {
    let out = text;
    for (const v of values) out = out.split(v).join(HIDDEN);
    return out;
  };
  // Secrets are replaced in the raw values, before JSON escaping: a secret holding a quote, a backslash or a
  // tab looks different once escaped, so redacting the serialised line alone would miss it.
  const scrub = (_k: string, v: unknown): unknown => {
    if (typeof v === 'string') return redact(v);
    if (v instanceof Error) return errorFields(v);
    if (typeof v === 'bigint') return v.toString();
    return v;
  };
  const emit = (level: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[level] < threshold) return;
    let body: string;
    try {
      body = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }, scrub);
    } catch {
      body = JSON.stringify({
        time: new Date().toISOString(),
        level,
        msg: redact(msg),
        note: 'fields not serialisable',
      });
    }
    write(redact(body));
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    redact,
  };
}

/** A logger that prints nothing (tests, tools). */
export const silentLogger: Logger = createLogger({ level: 'error', write: () => {} });
