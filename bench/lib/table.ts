// Plain-text table of the figures, as printed by `npm run bench` and pasted into docs/performance.md.
import { type FigureResult, statusOf } from './figure.js';

const show = (x: number | null) => (x === null ? '-' : String(x));

export function formatTable(figures: readonly FigureResult[]): string {
  const header = ['figure', 'value', 'unit', 'baseline', 'ratio', 'target', 'status'];
  const rows = figures.map((f) => [
    f.name,
    show(f.value),
    f.unit,
    show(f.baseline),
    show(f.ratio),
    f.target,
    statusOf(f),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  const rule = `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`;
  const notes = figures.map((f) => `- ${f.name}: ${f.note}`);
  return [line(header), rule, ...rows.map(line), '', ...notes].join('\n');
}
