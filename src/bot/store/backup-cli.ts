// `npm run backup -- <file>` / `npm run backup -- --dir <folder> --keep <n>` and `npm run restore -- <file>`: the
// store at STORE_URL (or .env) backed up while the desk runs, or a backup put in its place (docs/operations.md, "Back up
// and restore"). In the image: `node dist/src/bot/store/backup-cli.js backup …`. Exit 0 done, 2 refused or failed.
import { loadEnvFile } from '../config/env-file.js';
import { backupStore, backupToFolder, markRestored, restoreStore, summaryText } from './backup.js';
import { redactUrl } from './url.js';

const USAGE = `Usage:
  npm run backup -- <file>                      an online backup of the store at STORE_URL into a new file
  npm run backup -- --dir <folder> --keep <n>   into <folder>/desk-<UTC time>.sqlite|dump, keeping the newest n
  npm run restore -- <file>                     the backup put where STORE_URL points (an absent SQLite file, or an
                                                empty PostgreSQL database); the desk checks it at its next start
  npm run restore -- --mark <backup name>       the store at STORE_URL was restored by hand (pg_restore): mark it
STORE_URL: sqlite://… (default sqlite://data/bot.sqlite) or postgres://…`;

interface Args {
  cmd: string;
  file?: string;
  dir?: string;
  keep?: number;
  mark?: boolean;
}

function parse(argv: string[]): Args {
  const [cmd, ...rest] = argv;
  const out: Args = { cmd: cmd ?? '' };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i] as string;
    if (a === '--mark') out.mark = true;
    else if (a === '--dir') out.dir = rest[++i];
    else if (a === '--keep') out.keep = Number(rest[++i]);
    else if (!a.startsWith('--') && out.file === undefined) out.file = a;
    else throw new Error(`unknown argument ${a}`);
  }
  return out;
}

async function main(): Promise<void> {
  const args = parse(process.argv.slice(2));
  loadEnvFile();
  const url = process.env.STORE_URL?.trim() || 'sqlite://data/bot.sqlite';
  if (!/^(sqlite:\/\/.+|postgres(ql)?:\/\/.+)/.test(url)) {
    throw new Error('STORE_URL must look like sqlite://path/to/file.sqlite or postgres://user:pass@host:port/db');
  }
  if (args.cmd === 'restore' && args.mark && args.file && !args.dir) {
    const summary = await markRestored(url, args.file);
    console.log(`Marked ${redactUrl(url)} as restored from ${args.file}:\n${summaryText(summary)}`);
    console.log('Start the desk: it verifies the ledger and checks the gateway before it takes bets.');
    return;
  }
  if (args.cmd === 'restore' && args.file && !args.dir && !args.mark) {
    const summary = await restoreStore(args.file, url);
    console.log(`Restored ${args.file} into ${redactUrl(url)}:\n${summaryText(summary)}`);
    console.log('Start the desk: it verifies the ledger and checks the gateway before it takes bets.');
    return;
  }
  if (args.cmd !== 'backup' || (!args.file && !args.dir) || (args.file && args.dir)) throw new Error(USAGE);
  if (args.dir) {
    const done = await backupToFolder(url, args.dir, args.keep ?? Number.NaN);
    console.log(`Backed up ${redactUrl(url)} into ${done.file}:\n${summaryText(done.summary)}`);
    for (const f of done.removed) console.log(`Removed ${f} (more than ${args.keep} kept)`);
    return;
  }
  const summary = await backupStore(url, args.file as string);
  console.log(`Backed up ${redactUrl(url)} into ${args.file}:\n${summaryText(summary)}`);
}

try {
  await main();
} catch (err) {
  const message = (err as Error).message;
  console.error(message === USAGE ? USAGE : `Could not ${process.argv[2] ?? 'run'}: ${message}`);
  process.exit(2);
}
