import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/bot/config/logger.js';
import { Secret } from '../../../src/bot/config/secret.js';

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

  it('redacts a secret holding a quote, a backslash and a tab, which JSON escaping would disguise', () => {
    const lines: string[] = [];
    const secret = 'k"e\\y\tZ-9981';
    const log = createLogger({ secrets: [secret], write: (l) => lines.push(l) });
    log.warn(`msg ${secret}`, { field: `value ${secret}`, err: new Error(`boom ${secret}`) });
    const parsed = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
    expect(JSON.stringify(parsed)).not.toContain('Z-9981');
    expect(parsed.field).toBe('value [redacted]');
  });

  it("binds a child's fields only when the child writes a line (one is made per interaction before its ack)", () => {
    const lines: string[] = [];
    let reads = 0;
    const fields = {
      get interaction() {
        reads++;
        return '1576295657940058155';
      },
    };
    const child = createLogger({ level: 'info', write: (l) => lines.push(l) }).child(fields);
    child.debug('below the level');
    expect(reads).toBe(0);
    child.info('written');
    expect(reads).toBe(1);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ interaction: '1576295657940058155', msg: 'written' });
  });

  it('drops entries below the configured level', () => {
    const lines: string[] = [];
    const log = createLogger({ level: 'warn', write: (l) => lines.push(l) });
    log.info('quiet');
    log.warn('loud');
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['loud']);
  });

  it("puts a child's fields on each of its lines, redacted like any other", () => {
    const lines: string[] = [];
    const log = createLogger({ secrets: ['key-123456'], write: (l) => lines.push(l) });
    const child = log.child({ interaction: 'i-1', note: 'sent key-123456' });
    child.info('one');
    child.warn('two', { extra: 1 });
    log.info('parent');
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed.map((p) => p.interaction)).toEqual(['i-1', 'i-1', undefined]);
    expect(parsed[0]?.note).toBe('sent [redacted]');
  });
});
