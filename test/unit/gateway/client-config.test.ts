import { describe, expect, it } from 'vitest';
import { ClientClosedError, GatewayClient, GatewayError } from '../../../src/gateway/index.js';
import { redact } from '../../../src/gateway/internal/redact.js';

describe('client configuration', () => {
  it('refuses a missing or relative baseUrl with the snippet that fixes it', () => {
    expect(() => new GatewayClient({ baseUrl: '', apiKey: 'k' })).toThrow(
      /needs baseUrl[\s\S]*new GatewayClient\(\{ baseUrl:/,
    );
    expect(() => new GatewayClient({ baseUrl: '/v3', apiKey: 'k' })).toThrow(GatewayError);
  });

  it('refuses an empty apiKey and names the environment variable to use', () => {
    expect(() => new GatewayClient({ baseUrl: 'http://127.0.0.1:1', apiKey: '  ' })).toThrow(
      /needs apiKey.*GATEWAY_API_KEY/,
    );
  });

  it('refuses a non-positive timeout', () => {
    expect(() => new GatewayClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', timeoutMs: 0 })).toThrow(
      /timeoutMs must be a positive/,
    );
  });

  it('trims a trailing slash from baseUrl and closes cleanly with nothing pending', async () => {
    const client = new GatewayClient({ baseUrl: 'http://127.0.0.1:1/', apiKey: 'k' });
    expect(client.baseUrl).toBe('http://127.0.0.1:1');
    await client.close();
    await expect(client.sessions.list()).rejects.toBeInstanceOf(ClientClosedError);
    await client.close(); // a second close is harmless
  });
});

describe('redact', () => {
  it('masks a secret in nested strings and keys, leaving other values alone', () => {
    const out = redact({ a: 'x-secret-y', b: ['secret', 3, null], secret: { c: true } }, 'secret');
    expect(out).toEqual({ a: 'x-[redacted]-y', b: ['[redacted]', 3, null], '[redacted]': { c: true } });
    expect(redact('no key here', undefined)).toBe('no key here');
  });
});
