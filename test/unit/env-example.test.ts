// `.env.example` copied to `.env` as it is must keep the offline run's promise: it keeps nothing between runs.
import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';

const example = parseEnv(readFileSync(new URL('../../.env.example', import.meta.url), 'utf8'));

describe('.env.example', () => {
  it('leaves STORE_URL blank, so the offline playground takes a fresh temporary store each run', () => {
    expect(example.STORE_URL ?? '').toBe('');
  });

  it('leaves the token and the gateway URL blank, so a copy runs the offline playground on the sandbox', () => {
    expect(example.DISCORD_TOKEN ?? '').toBe('');
    expect(example.GATEWAY_BASE_URL ?? '').toBe('');
  });
});
