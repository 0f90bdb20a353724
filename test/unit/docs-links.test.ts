// Every relative link and #anchor in README.md and docs/**/*.md points at a file and heading that exist.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Guides linked from the README before their files are in this tree (each arrives with its feature). Until a
 * file exists a link to it is not checked; once it exists, its links and the anchors into it are checked like
 * any other.
 */

function markdownFiles(): string[] {
  const out = [join(ROOT, 'README.md')];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.md')) out.push(path);
    }
  };
  walk(join(ROOT, 'docs'));
  return out;
}

/** The text outside fenced code blocks and inline code spans, where links are links. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/``[^`]*``|`[^`\n]*`/g, '');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered -1, -2, … */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const text = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const m of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = (m[1] ?? '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}_\- ]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of markdown.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) out.add(m[1] as string);
  return out;
}

interface Broken {
  file: string;
  link: string;
  why: string;
}

function brokenLinks(): Broken[] {
  const broken: Broken[] = [];
  for (const file of markdownFiles()) {
    const text = readFileSync(file, 'utf8');
    for (const m of prose(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const link = m[1] as string;
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue;
      const [path = '', anchor] = link.split('#');
      const target = path === '' ? file : resolve(dirname(file), decodeURI(path));
      const rel = relative(ROOT, target).split('\\').join('/');
      const where = relative(ROOT, file);
      if (!existsSync(target)) {
        broken.push({ file: where, link, why: `no file ${rel}` });
        continue;
      }
      if (anchor && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor)) {
        broken.push({ file: where, link, why: `no heading #${anchor} in ${rel}` });
      }
    }
  }
  return broken;
}

describe('links in README.md and docs/', () => {
  it('reads heading anchors as GitHub writes them', () => {
    const anchors = anchorsOf('# `npm start`: on Discord, or the offline playground\n## Faults\n## Faults\n');
    expect([...anchors]).toEqual(['npm-start-on-discord-or-the-offline-playground', 'faults', 'faults-1']);
  });

  it('every relative link names a file that exists, and every #anchor a heading in it', () => {
    expect(brokenLinks()).toEqual([]);
  });

  it('the README links every guide in docs/', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const guides = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));
    for (const g of guides) expect(readme, `README.md links docs/${g}`).toContain(`](docs/${g}`);
  });
});
