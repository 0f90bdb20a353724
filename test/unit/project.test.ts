import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('project layout', () => {
  it('pins every dependency to an exact version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const all = { ...pkg.dependencies, ...pkg.devDependencies } as Record<string, string>;
    for (const [name, version] of Object.entries(all)) expect(version, name).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
