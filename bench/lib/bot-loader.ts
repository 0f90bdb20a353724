// Loads the bot's entry point at run time, so the bench runs (and reports "not measured") before it exists.
import type { BotConfig } from '../../src/bot/config.js';

/** What the bench uses of `startBot` (docs/contracts.md): a running bot it can stop. */
export interface RunningBot {
  stop(): Promise<void>;
  receiverUrl?: string | undefined;
}

export type StartBot = (config: BotConfig) => Promise<RunningBot>;

export class PartMissingError extends Error {
  override name = 'PartMissingError';
}

export async function loadStartBot(): Promise<StartBot> {
  // A computed specifier keeps the type checker from requiring the file before it lands.
  const specifier = ['..', '..', 'src', 'bot', 'index.js'].join('/');
  let mod: { startBot?: unknown };
  try {
    mod = (await import(specifier)) as { startBot?: unknown };
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
