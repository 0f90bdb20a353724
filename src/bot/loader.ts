import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Command } from './command.js';

export const COMMANDS_DIR = fileURLToPath(new URL('../../commands/', import.meta.url));

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

/** Loads every commands/<name>.ts (or .js when built), validated; refuses two commands with one name. */
export async function loadCommands(dir = COMMANDS_DIR): Promise<Map<string, Command>> {
  const files = (await readdir(dir)).filter((f) => /\.(ts|js|mjs)$/.test(f) && !f.endsWith('.d.ts')).sort();
  const out = new Map<string, Command>();
  for (const file of files) {
    const cmd = validateCommand(await import(pathToFileURL(`${dir}/${file}`).href), file);
    if (out.has(cmd.data.name)) throw new CommandModuleError(`${file}: a second command named "${cmd.data.name}"`);
    out.set(cmd.data.name, cmd);
  }
  return out;
}
