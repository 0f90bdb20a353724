// vitest globalSetup: the bot transpiled once for the run's bot child processes (test/support/bot-js.ts).
import { BOT_JS_ENV, transpileBot } from './bot-js.js';

export default async function setup() {
  // DESK_TEST_SOURCES=1: every test and child loads the TypeScript sources (exact line numbers in every stack).
  if (process.env.DESK_TEST_SOURCES === '1') return () => undefined;
  const { dir, remove } = await transpileBot();
  process.env[BOT_JS_ENV] = dir;
  return () => remove();
}
