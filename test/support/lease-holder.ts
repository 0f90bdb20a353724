// A process that opens the store at argv[2], takes the leader lease named argv[3] and holds it until killed.
// Prints one line "leader" once it holds the lease.
import { openStore } from '../../src/bot/store/index.js';

const [url, name] = process.argv.slice(2) as [string, string];
const store = await openStore(url);
store.runAsLeader(
  name,
  () => {
    process.stdout.write('leader\n');
    return undefined;
  },
  { checkMs: 100 },
);
setInterval(() => undefined, 60_000);
