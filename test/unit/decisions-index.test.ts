import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const DIR = join(import.meta.dirname, '../../docs/decisions');

describe('docs/decisions/README.md', () => {
  it('lists every decision record by its file name', () => {
    const index = readFileSync(join(DIR, 'README.md'), 'utf8');
    const records = readdirSync(DIR).filter((f) => /^\d{4}-.+\.md$/.test(f));
    expect(records.length).toBeGreaterThan(0);
    expect(records.filter((f) => !index.includes(`(${f})`))).toEqual([]);
  });
});
