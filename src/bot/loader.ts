import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Command } from './discord/command.js';

// Compiled (`npm run build`), this file sits in dist/src/bot and the commands in dist/commands.
export const COMMANDS_DIR = fileURLToPath(new URL('../../commands/', import.meta.url));

/** The extension of this running module: `.ts` under tsx (tests), `.js` when compiled. */
export const OWN_EXTENSION = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

export class CommandModuleError extends Error {
  override name = 'CommandModuleError';
}

/** Checks a module's default export has the Command shape; the message names the file and what is missing. */
export function validateCommand(mod: unknown, file: string): Command {
  const cmd = (mod as { default?: unknown })?.default as Partial<Command> | undefined;
  const problem = (what: string) =>
    new CommandModuleError(`${file}: ${what}. Export \`default { data, execute } satisfies Command\`.`);
  if (!cmd || typeof cmd !== 'object') throw problem('no default export');
  if (!cmd.data || typeof (cmd.data as { toJSON?: unknown }).toJSON !== 'function')
    throw problem('`data` is not a SlashCommandBuilder');
  if (typeof cmd.execute !== 'function') throw problem('`execute` is not a function');
  if (cmd.autocomplete !== undefined && typeof cmd.autocomplete !== 'function')
    throw problem('`autocomplete` is not a function');
  const name = cmd.data.name;
  if (!name || !/^[-_a-z0-9]{1,32}$/.test(name))
    throw problem(`command name "${name}" is not a valid slash command name`);
  return cmd as Command;
}

/**
 * The command modules among a folder's file names: those with the running code's own extension, so the
 * sources load under tsx and only the compiled files from dist (never a `.d.ts`, a source map or a stray twin).
 */
export function commandFiles(names: readonly string[], extension: string = OWN_EXTENSION): string[] {
  return names.filter((f) => f.endsWith(extension) && !f.endsWith('.d.ts')).sort();
}

/** Loads every commands/<name>.ts (or .js when built), validated; refuses two commands with one name. */
export async function loadCommands(dir = COMMANDS_DIR): Promise<Map<string, Command>> {
  const files = commandFiles(await readdir(dir));
  const out = new Map<string, Command>();
  for (const file of files) {
    const cmd = validateCommand(await import(pathToFileURL(`${dir}/${file}`).href), file);
    if (out.has(cmd.data.name)) throw new CommandModuleError(`${file}: a second command named "${cmd.data.name}"`);
    out.set(cmd.data.name, cmd);
  }
  return out;
}
