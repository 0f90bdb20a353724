import { beforeAll, describe, expect, it } from 'vitest';
import { undiciLoadedBy } from '../../support/undici-probe.js';

// The bot sends its own requests with undici 7's `request` without undici's index (src/bot/discord/undici-request.ts):
// loading the whole bot in a fresh process must not load the index (fetch, WebSocket, caches, mocks: about 3 MB of
// heap at start, figure 7), as the gateway client does not (test/unit/gateway/undici-parts.test.ts). discord.js's own
// undici 6 copies (under its folders) are not the bot's to choose.
let probe: Awaited<ReturnType<typeof undiciLoadedBy>>;

beforeAll(async () => {
  probe = await undiciLoadedBy('./src/bot/main.ts');
}, 30_000);

describe('the undici 7 the bot loads', () => {
  it("is its request and Agent, not undici's index", () => {
    expect(probe.loaded).toContain('lib/api/api-request.js');
    expect(probe.loaded.filter((f) => f === 'index.js' || f.startsWith('lib/web/'))).toEqual([]);
  });
});
