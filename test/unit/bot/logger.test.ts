import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/bot/logger.js';
import { Secret } from '../../../src/bot/secret.js';

describe('logger', () => {
  it('redacts the API key and the token from messages, fields and errors', () => {
    const lines: string[] = [];
    const log = createLogger({ secrets: [new Secret('key-123456'), 'discord-token-xyz'], write: (l) => lines.push(l) });
    log.error('failed with key-123456', { header: 'X-API-Key: key-123456', err: new Error('bad discord-token-xyz') });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('key-123456');
    expect(lines[0]).not.toContain('discord-token-xyz');
    expect(lines[0]).toContain('[redacted]');
  });

  it('drops entries below the configured level', () => {
    const lines: string[] = [];
    const log = createLogger({ level: 'warn', write: (l) => lines.push(l) });
    log.info('quiet');
    log.warn('loud');
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['loud']);
  });
});
