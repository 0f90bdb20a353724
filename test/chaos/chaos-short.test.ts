import { describe, expect, it } from 'vitest';
import { runChaos, SHORT } from './main.js';
import { failedLine, summarise, summaryLine } from './tally.js';

describe('chaos, short form', () => {
  it('survives every fault: no duplicate bet, no lost result, no crash', async () => {
    const lines: string[] = [];
    const results = await runChaos(SHORT, (line) => lines.push(line));
    const summary = summarise(results);
    const report = `${lines.join('\n')}\n${failedLine(summary)}\n${summaryLine(summary)}`;
    expect(summary.duplicateBets, report).toBe(0);
    expect(summary.lostResults, report).toBe(0);
    expect(summary.crashes, report).toBe(0);
    expect(summary.survived, report).toBe(summary.total);
  }, 180_000);
});
