// `npm run sandbox -- --port P [--speed N] [--seed N] [--control] [--faults] [--host H]`: runs in the foreground.
import { type Args, parseArgs, USAGE } from './core/cli-args.js';
import { FIXTURE_KEYS, startSandbox } from './index.js';

async function main(): Promise<void> {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  if (args.help) {
    console.log(USAGE);
    return;
  }
  const running = await startSandbox({ ...args });
  console.log(`Sandbox gateway listening on ${running.url}`);
  console.log(
    `  seed ${args.seed}, speed ${args.speed}x, control routes ${args.control ? 'on (/_sandbox)' : 'off'}, faults ${args.faults ? 'on' : 'off'}`,
  );
  console.log(`  fixture API keys (public test keys): ${FIXTURE_KEYS.join(', ')}`);
  const stop = () => {
    running.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

await main();
