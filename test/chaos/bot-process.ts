// The bot alone in a process, configured from the environment, so the chaos suite can kill -9 it.
// Prints one JSON line `{"ready":true,"receiverUrl":…}` on stdout once it is connected; logs go to stderr.
import { parseConfig } from '../../src/bot/config/config.js';
import { loadStartBot } from '../support/bot-entry.js';

const startBot = await loadStartBot();
// A restarted process of the same deployment keeps its lease owner id (BOT_PROCESS_ID) and resumes its jobs.
const processId = process.env.BOT_PROCESS_ID;
const bot = await startBot(parseConfig(process.env), processId ? { processId } : {});
process.stdout.write(`${JSON.stringify({ ready: true, receiverUrl: bot.receiverUrl, pid: process.pid })}\n`);

const stop = async () => {
  await bot.stop().catch(() => {});
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
