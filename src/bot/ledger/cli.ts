// `npm run ledger -- verify`: walks the ledger's hash chain in the store at STORE_URL (or .env) and names the
// first broken entry. Exit code 0 when intact, 1 when broken, 2 when it could not run.
import { loadEnvFile } from '../config/env-file.js';
import { openStore } from '../store/index.js';
import { Ledger, verifyText } from './ledger-repo.js';

const [cmd] = process.argv.slice(2);
if (cmd !== 'verify') {
  console.error(
    'Usage: npm run ledger -- verify   (reads STORE_URL: sqlite://… or postgres://…, default sqlite://data/bot.sqlite)',
  );
  process.exit(2);
}
try {
  loadEnvFile();
  const url = process.env.STORE_URL?.trim() || 'sqlite://data/bot.sqlite';
  if (!/^(sqlite:\/\/.+|postgres(ql)?:\/\/.+)/.test(url)) {
    throw new Error('STORE_URL must look like sqlite://path/to/file.sqlite or postgres://user:pass@host:port/db');
  }
  const store = await openStore(url);
  try {
    const result = await new Ledger(store).verify();
    console.log(verifyText(result));
    process.exitCode = result.ok ? 0 : 1;
  } finally {
    await store.close();
  }
} catch (err) {
  console.error(`Could not verify the ledger: ${(err as Error).message}`);
  process.exit(2);
}
