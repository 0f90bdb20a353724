// A process that opens the store at argv[2] and holds, until killed, either the leader lease named argv[3] or,
// when argv[3] is "lock:<key>", the key lock <key>. Prints one line "leader" (or "locked") once it holds it.
import { openStore } from '../../src/bot/store/index.js';

const [url, name] = process.argv.slice(2) as [string, string];
const store = await openStore(url);
if (name.startsWith('lock:')) {
  void store.withLock(name.slice('lock:'.length), () => {
    process.stdout.write('locked\n');
    return new Promise<never>(() => undefined);
  });
} else {
  store.runAsLeader(
    name,
    () => {
      process.stdout.write('leader\n');
      return undefined;
    },
    { checkMs: 100 },
  );
}
setInterval(() => undefined, 60_000);
