// argv for `npm run sandbox`, read by node:util parseArgs (strict); throws an Error whose message says what to pass.
import { parseArgs as parseArgv } from 'node:util';

export const USAGE =
  'usage: npm run sandbox -- [--port 8787] [--host 127.0.0.1] [--speed 1] [--seed 1] [--control] [--faults] [--quiet]';

export interface Args {
  port: number;
  host: string;
  speed: number;
  seed: number;
  control: boolean;
  faults: boolean;
  quiet: boolean;
  help: boolean;
}

const OPTIONS = {
  port: { type: 'string', default: '8787' },
  host: { type: 'string', default: '127.0.0.1' },
  speed: { type: 'string', default: '1' },
  seed: { type: 'string', default: '1' },
  control: { type: 'boolean', default: false },
  faults: { type: 'boolean', default: false },
  quiet: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** What each valued option accepts, in the words of its error message. */
const NUMBERS = {
  port: { check: (n: number) => Number.isInteger(n) && n >= 0 && n < 65536, want: 'a port 0-65535' },
  speed: { check: (n: number) => n > 0, want: 'a positive number' },
  seed: { check: Number.isInteger, want: 'a whole number' },
} as const;

const WANTS: Record<string, string> = {
  port: NUMBERS.port.want,
  speed: NUMBERS.speed.want,
  seed: NUMBERS.seed.want,
  host: 'a host name or address',
};

function number(name: keyof typeof NUMBERS, raw: string): number {
  const n = Number(raw);
  const { check, want } = NUMBERS[name];
  // Number('') is 0: an empty value is missing, not zero.
  if (raw.trim() === '' || !Number.isFinite(n) || !check(n)) throw new Error(`--${name} needs ${want}, got '${raw}'`);
  return n;
}

/** node:util's errors, in this command's words where ours say more (the option and what it needs). */
function explain(err: Error & { code?: string }): Error {
  const quoted = /'([^' ]+)[^']*'/.exec(err.message)?.[1] ?? '';
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return new Error(`unknown option '${quoted}'`);
  if (err.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    return new Error(`unexpected argument '${quoted}': every option starts with --`);
  }
  const want = WANTS[quoted.replace(/^--/, '')];
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && want && err.message.includes('argument missing')) {
    return new Error(`${quoted} needs ${want}, got ''`);
  }
  return new Error(err.message.split('\n').join(' '));
}

function read(argv: string[]) {
  try {
    return parseArgv({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }).values;
  } catch (err) {
    throw explain(err as Error & { code?: string });
  }
}

export function parseArgs(argv: string[]): Args {
  const values = read(argv);
  return {
    port: number('port', values.port),
    host: values.host,
    speed: number('speed', values.speed),
    seed: number('seed', values.seed),
    control: values.control,
    faults: values.faults,
    quiet: values.quiet,
    help: values.help,
  };
}
