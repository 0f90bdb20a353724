// The bot alone in a process, configured from the environment, so the chaos suite can kill -9 it.
// Prints one JSON line `{"ready":true,"receiverUrl":…}` on stdout once it is connected; logs go to stderr.
import { parseConfig } from '../../src/bot/config/config.js';
import { drainOnSignals } from '../../src/bot/index.js';
import { loadStartBot } from './bot-entry.js';

const startBot = await loadStartBot();
// A restarted process of the same deployment keeps its lease owner id (BOT_PROCESS_ID) and resumes its jobs.
const processId = process.env.BOT_PROCESS_ID;
const bot = await startBot(parseConfig(process.env), processId ? { processId } : {});
process.stdout.write(`${JSON.stringify({ ready: true, receiverUrl: bot.receiverUrl, pid: process.pid })}\n`);

// SIGTERM as in production: a drain (DRAIN_GRACE_SECONDS), a second SIGTERM exits at once.
drainOnSignals(bot);
