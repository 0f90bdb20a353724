import {
  ApplicationCommandOptionType,
  ButtonStyle,
  ComponentType,
  MessageFlags,
  TextInputStyle,
} from 'discord-api-types/v10';

/**
 * The `discord-api-types/v10` enums the page's scripts import. The page has no bundler: its import map points
 * `discord-api-types/v10` at {@link ENUMS_PATH}, a module written from the package's own values, so the page and
 * the double take Discord's numbers from one place (and the page's pure modules import the real package in Node).
 */
export const PAGE_ENUMS: Readonly<Record<string, object>> = {
  ApplicationCommandOptionType,
  ButtonStyle,
  ComponentType,
  MessageFlags,
  TextInputStyle,
};

export const ENUMS_PATH = '/discord-enums.js';

/** The module's source: each enum as the package exports it (names to numbers and back), frozen. */
export function enumModule(enums: Readonly<Record<string, object>> = PAGE_ENUMS): string {
  const lines = Object.entries(enums).map(
    ([name, value]) => `export const ${name} = Object.freeze(${JSON.stringify(value)});`,
  );
  return `// Written by the playground server from discord-api-types/v10.\n${lines.join('\n')}\n`;
}

/** Built once at start: the values cannot change while the process runs. */
export const ENUM_MODULE = enumModule();
