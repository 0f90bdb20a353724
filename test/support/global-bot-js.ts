// vitest globalSetup: the bot transpiled once for the run's bot child processes (test/support/bot-js.ts).
import { BOT_JS_ENV, transpileBot } from './bot-js.js';

export default async function setup() {
  const { dir, remove } = await transpileBot();
  process.env[BOT_JS_ENV] = dir;
  return () => remove();
}
