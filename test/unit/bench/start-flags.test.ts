import { describe, expect, it } from 'vitest';
import { startNodeFlags } from '../../../bench/lib/build.js';

describe('the node flags the bench takes from npm start', () => {
  it('reads the flags between node and the compiled entry point', () => {
    expect(startNodeFlags('npm run build --silent && node --max-semi-space-size=4 --foo dist/src/bot/main.js')).toEqual(
      ['--max-semi-space-size=4', '--foo'],
    );
  });

  it('leaves out the build check npm start preloads, which is no V8 setting', () => {
    expect(startNodeFlags('node --max-semi-space-size=4 --import=./scripts/build.mjs dist/src/bot/main.js')).toEqual([
      '--max-semi-space-size=4',
    ]);
  });

  it('is empty when npm start passes no flag', () => {
    expect(startNodeFlags('npm run build --silent && node dist/src/bot/main.js')).toEqual([]);
  });

  it('matches the real package.json start script, which runs the compiled bot', () => {
    expect(Array.isArray(startNodeFlags())).toBe(true);
  });

  it('refuses a start script that does not run the compiled bot, saying what it expects', () => {
    expect(() => startNodeFlags('tsx src/bot/main.ts')).toThrow(/node \[flags\] dist\/src\/bot\/main\.js/);
  });
});
