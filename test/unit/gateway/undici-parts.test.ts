import { beforeAll, describe, expect, it } from 'vitest';
import { undiciLoadedBy } from '../../support/undici-probe.js';

// The client requires only the parts of undici it runs (src/gateway/internal/undici.ts): importing it in a fresh
// process must not load undici's index (fetch, WebSocket, caches, mocks: about 2 MB of heap), and must leave the
// process's global dispatcher as the index would have (an undici 7 Agent when none was set).
let probe: Awaited<ReturnType<typeof undiciLoadedBy>>;

beforeAll(async () => {
  probe = await undiciLoadedBy('./src/gateway/index.ts');
}, 30_000);

describe('the undici the gateway client loads', () => {
  it("is its Agent and header parser, not undici's index", () => {
    expect(probe.loaded).toContain('lib/dispatcher/agent.js');
    expect(probe.loaded.filter((f) => f === 'index.js' || f.startsWith('lib/web/'))).toEqual([]);
  });

  it('sets an undici 7 Agent as the global dispatcher, as loading the index did', () => {
    expect(probe.globalIsAgent).toBe(true);
  });
});
