// Loads the bot's entry point at run time, so a bot that fails to load is reported as "not measured"
// for the figures that need it instead of stopping the whole bench.
import type { RunningBot, startBot } from '../../src/bot/index.js';

export type { RunningBot };
export type StartBot = typeof startBot;

export class PartMissingError extends Error {
  override name = 'PartMissingError';
}

export async function loadStartBot(): Promise<StartBot> {
  let mod: { startBot?: unknown };
  try {
    mod = (await import('../../src/bot/index.js')) as { startBot?: unknown };
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND') {
      throw new PartMissingError('the bot entry point src/bot/index.ts (startBot) is not there yet');
    }
    throw err;
  }
  if (typeof mod.startBot !== 'function') {
    throw new PartMissingError('src/bot/index.ts does not export startBot yet');
  }
  return mod.startBot as StartBot;
}
