// Members read one apostrophe: the typewriter ' everywhere the bot speaks (replies, command and option descriptions).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

describe('apostrophes in what the bot says', () => {
  it('uses the typewriter apostrophe, never ’, in src/bot and commands/', () => {
    const curly = [...sources(join(ROOT, 'src', 'bot')), ...sources(join(ROOT, 'commands'))].flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (line.includes('\u2019') ? [`${file.slice(ROOT.length)}:${i + 1}`] : [])),
    );
    expect(curly).toEqual([]);
  });
});
