// Money is rounded to cents and formatted in one place per part (decision 1931): src/bot/model/money.ts for the
// desk, src/sandbox/core/money.ts for the gateway double (the parts import nothing of each other). This scans the
// desk's code (src/bot, commands/), the client library (src/gateway) and the sandbox and fails, naming file and
// line, on a Math.round(… * 100) or a .toFixed(2) anywhere else. A whole percent or a staking unit shown at once
// (`${Math.round(r * 100)}%`, `${x.toFixed(2)}u`) is not money and passes; every other site that is not money
// is in ALLOWED below, with why.
//
// Not scanned: src/local-discord, Discord's double, which holds no money (its playground rounds a watch's price
// and a file size) and imports neither the bot nor the sandbox (part-directions.test.ts).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCANNED = ['src/bot', 'src/gateway', 'src/sandbox', 'commands'];
const MONEY_MODULES = ['src/bot/model/money.ts', 'src/sandbox/core/money.ts'];

/** Sites that round or print hundredths of something that is not money: file, the text of the site, why. */
const ALLOWED: ReadonlyArray<{ file: string; site: string; why: string }> = [
  { file: 'src/bot/model/odds.ts', site: 'Math.round(odds * 100)', why: 'a price to two decimals (roundPrice)' },
  { file: 'src/bot/model/odds.ts', site: 'odds.toFixed(2)', why: 'formatOdds: every price shown goes through it' },
  {
    file: 'src/bot/watch/model/watch-rules.ts',
    site: 'Math.round(odds * 100)',
    why: 'a price in hundredths for a watch',
  },
  {
    file: 'commands/watch.ts',
    site: "Math.round(requiredNumber(interaction, 'target') * 100)",
    why: 'a watch target is a price, read to two decimals',
  },
  {
    file: 'src/bot/betting/views/desk.ts',
    site: 'Math.round((a.expiryMs / 60_000) * 100)',
    why: 'minutes, to 0.01 min',
  },
  {
    file: 'src/bot/fund/fund-service.ts',
    site: 'Math.round((percent ?? 0) * 100)',
    why: 'percent to basis points',
  },
  {
    file: 'src/bot/fund/model/unit-price.ts',
    site: ') * 100).toFixed(2)',
    why: "the unit price's change in percent (formatPriceChange)",
  },
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|mts|js|mjs)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The argument of the call whose '(' is at `open`, by balanced parentheses. */
function argumentAt(text: string, open: number): { arg: string; end: number } {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return { arg: text.slice(open + 1, i), end: i + 1 };
  }
  return { arg: text.slice(open + 1), end: text.length };
}

/** Shown at once as a whole percent or a number of staking units, inside a template: `…}%`, `…} %`, `…}u`. */
const shownAsPercentOrUnits = (after: string) => /^\s*\}\s?(%|u\b)/.test(after);

interface MoneySite {
  file: string;
  line: number;
  text: string;
}

/** Every Math.round(… * 100) and .toFixed(2) in a file's text that is neither allowed nor a percent or unit shown. */
function moneySites(file: string, text: string): MoneySite[] {
  if (MONEY_MODULES.includes(file)) return [];
  const sites: MoneySite[] = [];
  const lineOf = (at: number) => text.slice(0, at).split('\n').length;
  const allowed = (site: string) => ALLOWED.some((a) => a.file === file && site.includes(a.site));
  for (const m of text.matchAll(/Math\.round\(/g)) {
    const open = (m.index ?? 0) + 'Math.round'.length;
    const { arg, end } = argumentAt(text, open);
    if (!/\*\s*100\s*$/.test(arg)) continue;
    const site = `Math.round(${arg})`;
    if (shownAsPercentOrUnits(text.slice(end)) || allowed(site)) continue;
    sites.push({ file, line: lineOf(m.index ?? 0), text: site });
  }
  for (const m of text.matchAll(/\.toFixed\(2\)/g)) {
    const at = m.index ?? 0;
    const line = text.slice(
      text.lastIndexOf('\n', at) + 1,
      text.indexOf('\n', at) === -1 ? undefined : text.indexOf('\n', at),
    );
    if (
      shownAsPercentOrUnits(text.slice(at + m[0].length)) ||
      ALLOWED.some((a) => a.file === file && line.includes(a.site))
    )
      continue;
    sites.push({ file, line: lineOf(at), text: line.trim() });
  }
  return sites;
}

describe('money is rounded and formatted only in the money modules', () => {
  it('finds no Math.round(x * 100) and no toFixed(2) of money elsewhere in src/bot, src/gateway, src/sandbox or commands/', () => {
    const found = SCANNED.flatMap((dir) => sources(join(ROOT, dir))).flatMap((path) =>
      moneySites(path.slice(ROOT.length), readFileSync(path, 'utf8')),
    );
    const named = found.map(
      (s) => `${s.file}:${s.line}: ${s.text} (use the part's money module: ${MONEY_MODULES.join(', ')})`,
    );
    expect(named).toEqual([]);
  });

  it('every allowed site still exists, so the list only shrinks', () => {
    const gone = ALLOWED.filter((a) => !readFileSync(join(ROOT, a.file), 'utf8').includes(a.site));
    expect(gone.map((a) => `${a.file}: ${a.site}`)).toEqual([]);
  });

  it('names the file and line of a new site, and lets percentages and units through', () => {
    // Source text under test, not templates of this file.
    const text = [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text under test
      'const a = `${Math.round(share * 100)}%`;',
      'const b = Math.round(stake * 100);',
      'const c = `$${(cents / 100).toFixed(2)}`;',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text under test
      'const d = `${(r * 100).toFixed(2)}%`;',
    ].join('\n');
    expect(moneySites('src/bot/views/x.ts', text)).toEqual([
      { file: 'src/bot/views/x.ts', line: 2, text: 'Math.round(stake * 100)' },
      { file: 'src/bot/views/x.ts', line: 3, text: 'const c = `$${(cents / 100).toFixed(2)}`;' },
    ]);
    expect(moneySites(MONEY_MODULES[0]!, text)).toEqual([]);
  });
});
