// Plain argv parsing for `npm run sandbox`; throws an Error whose message says what to pass.

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

export function parseArgs(argv: string[]): Args {
  const args: Args = {
    port: 8787,
    host: '127.0.0.1',
    speed: 1,
    seed: 1,
    control: false,
    faults: false,
    quiet: false,
    help: false,
  };
  const number = (flag: string, raw: string | undefined, check: (n: number) => boolean, want: string) => {
    const n = Number(raw);
    if (raw === undefined || !Number.isFinite(n) || !check(n))
      throw new Error(`${flag} needs ${want}, got '${raw ?? ''}'`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const [name, inline] = flag.includes('=') ? flag.split('=', 2) : [flag, undefined];
    const value = () => inline ?? argv[++i];
    switch (name) {
      case '--port':
        args.port = number('--port', value(), (n) => Number.isInteger(n) && n >= 0 && n < 65536, 'a port 0-65535');
        break;
      case '--host':
        args.host = value() ?? args.host;
        break;
      case '--speed':
        args.speed = number('--speed', value(), (n) => n > 0, 'a positive number');
        break;
      case '--seed':
        args.seed = number('--seed', value(), Number.isInteger, 'a whole number');
        break;
      case '--control':
        args.control = true;
        break;
      case '--faults':
        args.faults = true;
        break;
      case '--quiet':
        args.quiet = true;
        break;
      case '--help':
      case '-h':
        args.help = true;
        break;
      default:
        throw new Error(`unknown option '${flag}'`);
    }
  }
  return args;
}
