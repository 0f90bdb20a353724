// `npm run backup -- <file>` / `npm run backup -- --dir <folder> --keep <n>` and `npm run restore -- <file>`: the
// store at STORE_URL (or .env) backed up while the desk runs, or a backup put in its place (docs/operations.md, "Back up
// and restore"). In the image: `node dist/src/bot/store/backup-cli.js backup …`. Exit 0 done, 2 refused or failed.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadEnvFile } from '../config/env-file.js';
import { backupStore, restoreStore, summaryText } from './backup.js';
import { redactUrl } from './url.js';

const USAGE = `Usage:
  npm run backup -- <file>                      an online backup of the store at STORE_URL into a new file
  npm run backup -- --dir <folder> --keep <n>   into <folder>/desk-<time>.(sqlite|dump), keeping the newest n
  npm run restore -- <file>                     the backup put where STORE_URL points (an absent SQLite file, or an
                                                empty PostgreSQL database); the desk checks it at its next start
STORE_URL: sqlite://… (default sqlite://data/bot.sqlite) or postgres://…`;

/** Backups this command wrote into a folder, oldest first (their names sort by time). */
const OURS = /^desk-\d{8}T\d{6}Z\.(sqlite|dump)$/;

function parse(argv: string[]): { cmd: string; file?: string; dir?: string; keep?: number } {
  const [cmd, ...rest] = argv;
  const out: { cmd: string; file?: string; dir?: string; keep?: number } = { cmd: cmd ?? '' };
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i] as string;
    if (a === '--dir') out.dir = rest[++i];
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
  if (args.cmd === 'restore' && args.file && !args.dir) {
    const summary = await restoreStore(args.file, url);
    console.log(`Restored ${args.file} into ${redactUrl(url)}:\n${summaryText(summary)}`);
    console.log('Start the desk: it verifies the ledger and checks the gateway before it takes bets.');
    return;
  }
  if (args.cmd !== 'backup' || (!args.file && !args.dir) || (args.file && args.dir)) throw new Error(USAGE);
  let file = args.file as string;
  if (args.dir) {
    if (!Number.isInteger(args.keep) || (args.keep as number) < 1)
      throw new Error('--keep takes a whole number, 1 or more');
    const stamp = new Date()
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
    file = join(args.dir, `desk-${stamp}.${url.startsWith('sqlite') ? 'sqlite' : 'dump'}`);
  }
  const summary = await backupStore(url, file);
  console.log(`Backed up ${redactUrl(url)} into ${file}:\n${summaryText(summary)}`);
  if (args.dir) {
    const ours = readdirSync(args.dir)
      .filter((f) => OURS.test(f))
      .sort();
    for (const old of ours.slice(0, Math.max(0, ours.length - (args.keep as number)))) {
      rmSync(join(args.dir, old));
      console.log(`Removed ${join(args.dir, old)} (more than ${args.keep} kept)`);
    }
  }
}

try {
  await main();
} catch (err) {
  const message = (err as Error).message;
  console.error(message === USAGE ? USAGE : `Could not ${process.argv[2] ?? 'run'}: ${message}`);
  process.exit(2);
}
