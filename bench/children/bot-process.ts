// The bot alone in a child process, so its RSS is its own. Configured by the environment the parent passes;
// answers {rss} after a forced collection when asked, and stops on request. Needs node --expose-gc.
import { parseConfig } from '../../src/bot/config/config.js';
import { loadStartBot } from '../lib/bot-loader.js';

type Request = { type: 'rss' } | { type: 'stop' };

const send = (msg: Record<string, unknown>) => process.send?.(msg);

async function main(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run this child with node --expose-gc so RSS is read after a full collection');
  const startBot = await loadStartBot();
  const bot = await startBot(parseConfig(process.env));
  process.on('message', (msg: Request) => {
    if (msg.type === 'rss') {
      // Two passes: the first frees objects whose finalizers release more.
      gc();
      gc();
      send({ type: 'rss', rss: process.memoryUsage().rss, heapUsed: process.memoryUsage().heapUsed });
    } else if (msg.type === 'stop') {
      void bot.stop().finally(() => process.exit(0));
    }
  });
  send({ type: 'ready' });
}

main().catch((err) => {
  send({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  process.exit(1);
});
