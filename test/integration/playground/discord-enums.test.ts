import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalDiscord, startLocalDiscord } from '../../../src/local-discord/index.js';
import { ENUMS_PATH, PAGE_ENUMS } from '../../../src/local-discord/playground/discord-enums.js';
import { type Playground, startPlayground } from '../../../src/local-discord/playground/server.js';

let ld: LocalDiscord;
let pg: Playground;

beforeAll(async () => {
  ld = await startLocalDiscord({ port: 0 });
  pg = await startPlayground({ ld, port: 0 });
});

afterAll(async () => {
  await pg?.close();
  await ld?.close();
});

/** Loads the served module as the browser would: an ES module from its source. */
async function served(): Promise<{ type: string | null; module: Record<string, unknown> }> {
  const res = await fetch(`${pg.url}${ENUMS_PATH}`);
  expect(res.status).toBe(200);
  const source = await res.text();
  const module = (await import(
    /* @vite-ignore */ `data:text/javascript;base64,${Buffer.from(source).toString('base64')}`
  )) as Record<string, unknown>;
  return { type: res.headers.get('content-type'), module };
}

describe('the enum module the playground serves to its page', () => {
  it("holds discord-api-types/v10's own values for each enum the page imports", async () => {
    const v10 = (await import('discord-api-types/v10')) as unknown as Record<string, object>;
    const { module } = await served();
    expect(Object.keys(module).sort()).toEqual(Object.keys(PAGE_ENUMS).sort());
    for (const name of Object.keys(module))
      expect({ name, value: module[name] }).toEqual({ name, value: { ...v10[name] } });
  });

  it('is JavaScript the browser runs as a module', async () => {
    expect((await served()).type).toBe('text/javascript; charset=utf-8');
  });
});
