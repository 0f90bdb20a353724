import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSecretFiles } from '../../../src/bot/config/env-file.js';

const dir = mkdtempSync(join(tmpdir(), 'secret-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('secrets given as files (NAME_FILE)', () => {
  it('reads the token and the key from their files, one trailing newline dropped', () => {
    writeFileSync(join(dir, 'token'), 'tok.en.value\n');
    writeFileSync(join(dir, 'key'), 'key-value');
    const env: Record<string, string | undefined> = {
      DISCORD_TOKEN_FILE: join(dir, 'token'),
      GATEWAY_API_KEY_FILE: join(dir, 'key'),
    };
    readSecretFiles(env);
    expect(env.DISCORD_TOKEN).toBe('tok.en.value');
    expect(env.GATEWAY_API_KEY).toBe('key-value');
  });

  it('refuses a variable given both ways, and a file it cannot read, naming the variable but not the value', () => {
    writeFileSync(join(dir, 'metrics'), 'm-secret');
    expect(() => readSecretFiles({ METRICS_TOKEN: 'x', METRICS_TOKEN_FILE: join(dir, 'metrics') })).toThrow(
      /METRICS_TOKEN or METRICS_TOKEN_FILE, not both/,
    );
    expect(() => readSecretFiles({ DISCORD_TOKEN_FILE: join(dir, 'missing') })).toThrow(
      /DISCORD_TOKEN_FILE names .*missing, which cannot be read \(ENOENT\)/,
    );
  });

  it('leaves the environment alone when no _FILE variable is set', () => {
    const env = { DISCORD_TOKEN: 'as-is' };
    readSecretFiles(env);
    expect(env).toEqual({ DISCORD_TOKEN: 'as-is' });
  });
});
