import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENUMS_PATH, PAGE_ENUMS } from '../../../src/local-discord/playground/discord-enums.js';
import { PUBLIC_DIR } from '../../../src/local-discord/playground/static-files.js';

const scripts = readdirSync(PUBLIC_DIR)
  .filter((f) => f.endsWith('.js'))
  .map((name) => ({ name, text: readFileSync(join(PUBLIC_DIR, name), 'utf8') }));

/** The names each script imports from discord-api-types/v10. */
function importedEnums(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'discord-api-types\/v10'/g)) {
    names.push(...(m[1] ?? '').split(',').map((n) => (n.trim().split(/\s+as\s+/)[0] ?? '').trim()));
  }
  return names.filter(Boolean);
}

// Shapes of a Discord number written by hand: the old constants, a type/style compared with a literal, a flag
// built by a shift, an object keyed by numbers or an enum-like `Name: 3` member list.
const HAND_DECLARED: Array<[string, RegExp]> = [
  ['an old constant', /\b(OptionType|EPHEMERAL|LOADING|TEXT_INPUT|STRING_SELECT)\s*=/],
  ['a type, style or flags compared with a number', /\b(type|style|flags)\s*(\?\?\s*\d+\s*\)?\s*)?[!=]==?\s*\d/],
  ['a flag as a shift', /\b\d+\s*<<\s*\d+/],
  ['flags masked with a number', /\bflags\)?\s*&\s*\d/],
  ['an object keyed by numbers', /\{\s*\d+\s*:/],
  ['a case on a number', /\bcase\s+\d+\s*:/],
  ['an enum-like member list', /^\s*[A-Z]\w*:\s*\d+,?\s*$/m],
];

describe("the playground page's Discord numbers", () => {
  it('come from discord-api-types/v10 in the scripts that use them', () => {
    const importers = scripts.filter((s) => importedEnums(s.text).length > 0).map((s) => s.name);
    expect(importers.sort()).toEqual(['command-line.js', 'modal.js', 'render.js']);
  });

  it('are all in the module the server writes for the browser', () => {
    const imported = new Set(scripts.flatMap((s) => importedEnums(s.text)));
    expect([...imported].filter((name) => !(name in PAGE_ENUMS))).toEqual([]);
  });

  it("reach the browser through the page's import map", () => {
    const html = readFileSync(join(PUBLIC_DIR, 'index.html'), 'utf8');
    const map = /<script type="importmap">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '{}';
    expect((JSON.parse(map) as { imports: Record<string, string> }).imports['discord-api-types/v10']).toBe(ENUMS_PATH);
  });

  it.each(HAND_DECLARED)('are never written by hand (%s)', (_what, pattern) => {
    const found = scripts.filter((s) => pattern.test(s.text)).map((s) => `${s.name}: ${pattern.exec(s.text)?.[0]}`);
    expect(found).toEqual([]);
  });
});
