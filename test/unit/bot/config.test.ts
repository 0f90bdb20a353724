import { hostname } from 'node:os';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, callbackUrlOf, parseConfig } from '../../../src/bot/config/config.js';

describe('bot config', () => {
  it('applies the documented defaults to an empty environment', () => {
    const c = parseConfig({});
    expect(c.webhook.port).toBe(8790);
    expect(c.storeUrl).toBe('sqlite://data/bot.sqlite');
    expect(c.logLevel).toBe('info');
    expect(c.tunables.slipExpiryMs).toBe(120_000);
    expect(c.gateway.baseUrl).toBeUndefined();
    expect(callbackUrlOf(c)).toBeUndefined();
  });

  it("reads the closing capture's share of the card limit: a quarter by default, refused outside 1-90 %", () => {
    expect(parseConfig({}).tunables.captureShare).toBe(0.25);
    expect(parseConfig({ CAPTURE_SHARE_PERCENT: '10' }).tunables.captureShare).toBe(0.1);
    expect(() => parseConfig({ CAPTURE_SHARE_PERCENT: '95' })).toThrow(/CAPTURE_SHARE_PERCENT/);
  });

  it('reads the outbox lease: 30 s by default, refused below 5 s (shorter than a slow Discord write)', () => {
    expect(parseConfig({}).tunables.outboxLeaseMs).toBe(30_000);
    expect(parseConfig({ OUTBOX_LEASE_SECONDS: '6' }).tunables.outboxLeaseMs).toBe(6_000);
    expect(() => parseConfig({ OUTBOX_LEASE_SECONDS: '2' })).toThrow(/OUTBOX_LEASE_SECONDS/);
  });

  it("reads the helper threads' nice value: 10 by default, 0 to leave them at the loop's, refused above 19", () => {
    expect(parseConfig({}).ops?.helperThreadsNice).toBe(10);
    expect(parseConfig({ HELPER_THREADS_NICE: '0' }).ops?.helperThreadsNice).toBe(0);
    expect(() => parseConfig({ HELPER_THREADS_NICE: '20' })).toThrow(/HELPER_THREADS_NICE/);
    expect(() => parseConfig({ HELPER_THREADS_NICE: '-1' })).toThrow(/HELPER_THREADS_NICE/);
  });

  it('reads the price-check wait: 20 s by default, 2-300 s', () => {
    expect(parseConfig({}).tunables.priceCheckWaitMs).toBe(20_000);
    expect(parseConfig({ PRICE_CHECK_WAIT_SECONDS: '3' }).tunables.priceCheckWaitMs).toBe(3_000);
    expect(() => parseConfig({ PRICE_CHECK_WAIT_SECONDS: '1' })).toThrow(/PRICE_CHECK_WAIT_SECONDS/);
  });

  it('binds the receiver to loopback unless WEBHOOK_HOST names an address (a container sets 0.0.0.0)', () => {
    expect(parseConfig({}).webhook.host).toBeUndefined();
    expect(parseConfig({ WEBHOOK_HOST: ' 0.0.0.0 ' }).webhook.host).toBe('0.0.0.0');
    expect(parseConfig({ WEBHOOK_HOST: '[::]' }).webhook.host).toBe('::');
    expect(() => parseConfig({ WEBHOOK_HOST: 'http://0.0.0.0' })).toThrow(/WEBHOOK_HOST/);
  });

  it('uses a stable process id for job leases: BOT_PROCESS_ID, else the host name', () => {
    expect(parseConfig({}).processId).toBe(hostname());
    expect(parseConfig({ BOT_PROCESS_ID: ' desk-2 ' }).processId).toBe('desk-2');
    expect(parseConfig({ BOT_PROCESS_ID: '' }).processId).toBe(hostname());
  });

  it('names the variable and what to do when a value is bad', () => {
    expect(() => parseConfig({ WEBHOOK_PORT: 'eighty' })).toThrow(/WEBHOOK_PORT must be a whole number/);
    expect(() => parseConfig({ GATEWAY_BASE_URL: 'localhost:8787' })).toThrow(/GATEWAY_BASE_URL must be an http/);
    expect(() => parseConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL must be one of debug, info, warn, error/);
    expect(() => parseConfig({ DISCORD_GUILD_ID: 'my-server' })).toThrow(/DISCORD_GUILD_ID must be a Discord id/);
    expect(() => parseConfig({ STORE_URL: 'redis://x' })).toThrow(ConfigError);
  });

  it('takes a PostgreSQL store URL and refuses one without a database name', () => {
    expect(parseConfig({ STORE_URL: 'postgres://desk:pw@db.internal:5432/desk' }).storeUrl).toBe(
      'postgres://desk:pw@db.internal:5432/desk',
    );
    expect(() => parseConfig({ STORE_URL: 'postgres://db.internal:5432' })).toThrow(
      /STORE_URL must look like sqlite:\/\/path.* or postgres:\/\/user:password@host:5432\/database/,
    );
  });

  it('reads sharding: no sharding by default, SHARD_COUNT and the SHARDS run here', () => {
    expect(parseConfig({}).sharding).toEqual({ count: 1, ids: undefined });
    expect(parseConfig({ SHARD_COUNT: '4', SHARDS: '3, 1' }).sharding).toEqual({ count: 4, ids: [1, 3] });
    // The form discord.js's ShardingManager hands each shard process.
    expect(parseConfig({ SHARD_COUNT: '2', SHARDS: '1' }).sharding).toEqual({ count: 2, ids: [1] });
    expect(parseConfig({ SHARD_COUNT: 'auto' }).sharding.count).toBe('auto');
    expect(() => parseConfig({ SHARD_COUNT: '2', SHARDS: '2' })).toThrow(/SHARDS must only list ids below SHARD_COUNT/);
    expect(() => parseConfig({ SHARD_COUNT: 'many' })).toThrow(/SHARD_COUNT must be 'auto' or a whole number/);
    expect(() => parseConfig({ SHARDS: 'first' })).toThrow(/SHARDS must list shard ids/);
  });

  it('lists every bad variable at once', () => {
    try {
      parseConfig({ WEBHOOK_PORT: '-1', LOG_LEVEL: 'x' });
      expect.unreachable();
    } catch (err) {
      expect(String(err)).toContain('WEBHOOK_PORT');
      expect(String(err)).toContain('LOG_LEVEL');
    }
  });

  it('refuses a per-bet limit above the per-day limit', () => {
    expect(() => parseConfig({ DEFAULT_MAX_STAKE_PER_BET: '600', DEFAULT_MAX_STAKE_PER_DAY: '500' })).toThrow(
      /DEFAULT_MAX_STAKE_PER_BET must not exceed/,
    );
  });

  it('refuses a reconcile window shorter than the gateway job deadline, which could judge a live job never made', () => {
    expect(() => parseConfig({ RECONCILE_WINDOW_SECONDS: '60' })).toThrow(
      /RECONCILE_WINDOW_SECONDS \(60\) must be at least GATEWAY_JOB_DEADLINE_SECONDS \(300\)/,
    );
    expect(
      parseConfig({ RECONCILE_WINDOW_SECONDS: '60', GATEWAY_JOB_DEADLINE_SECONDS: '60' }).tunables.reconcileWindowMs,
    ).toBe(60_000);
  });

  it('builds the callback url from the public webhook url', () => {
    const c = parseConfig({ WEBHOOK_PUBLIC_URL: 'https://desk.example.org/' });
    expect(callbackUrlOf(c)).toBe('https://desk.example.org/webhooks/gateway');
  });

  it('never prints the API key or the Discord token', () => {
    const c = parseConfig({ GATEWAY_API_KEY: 'super-secret-key', DISCORD_TOKEN: 'tok.en.value' });
    const printed = [JSON.stringify(c), inspect(c, { depth: 10 }), String(c.gateway.apiKey), `${c.discord.token}`];
    for (const p of printed) {
      expect(p).not.toContain('super-secret-key');
      expect(p).not.toContain('tok.en.value');
    }
    expect(c.gateway.apiKey?.reveal()).toBe('super-secret-key');
  });
});
