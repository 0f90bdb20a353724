// Which message stages a restart must queue again: those the outbox has not recorded at that rank or later.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/bot/config/logger.js';
import type { DiscordPoster } from '../../../src/bot/discord/poster.js';
import { Outbox, RANK } from '../../../src/bot/results/outbox.js';
import { type BotStore, openStore } from '../../../src/bot/store/index.js';
import { ENGINES, freshStoreUrl } from '../../pg/engines.js';

describe.each(ENGINES)('outbox stages on %s', (engine) => {
  let store: BotStore;
  let outbox: Outbox;
  let cleanup: () => void;
  const poster: DiscordPoster = { edit: async () => {}, post: async () => 'm' };
  beforeEach(async () => {
    const fresh = await freshStoreUrl(engine);
    cleanup = fresh.cleanup;
    store = await openStore(fresh.url);
    outbox = new Outbox({ store, poster, logger: createLogger({ write: () => {} }), now: Date.now, owner: 'p1' });
  });
  afterEach(async () => {
    await outbox.stop();
    await store.close();
    cleanup();
  });

  const view = (content: string) => ({ content, embeds: [], components: [] });
  const stage = (messageId: string, rank: number) => ({ channelId: 'c1', messageId, rank });

  it('names a stage of a message the outbox has no edit of', async () => {
    expect(await outbox.unrecorded([stage('m1', RANK.final)])).toEqual([stage('m1', RANK.final)]);
  });

  it('names a stage later than the one recorded, sent or not', async () => {
    await outbox.edit('c1', 'm1', view('submitted'), RANK.submitted);
    await outbox.idle();
    expect(await outbox.unrecorded([stage('m1', RANK.final)])).toEqual([stage('m1', RANK.final)]);
  });

  it('leaves out stages recorded already or overtaken by a later one', async () => {
    await outbox.edit('c1', 'm1', view('final'), RANK.final);
    await outbox.edit('c1', 'm2', view('unknown'), RANK.unknown);
    await outbox.idle();
    expect(await outbox.unrecorded([stage('m1', RANK.final), stage('m2', RANK.submitted)])).toEqual([]);
  });

  it('sends a later stage recorded while the earlier one is in flight at once, not when its lease runs out', async () => {
    const sent: string[] = [];
    let release!: () => void;
    const inFlight = new Promise<void>((r) => {
      release = r;
    });
    const slowPoster: DiscordPoster = {
      edit: async (_c, _m, v) => {
        sent.push(String(v.content));
        if (v.content === 'submitted') await inFlight;
      },
      post: async () => 'm',
    };
    const box = new Outbox({
      store,
      poster: slowPoster,
      logger: createLogger({ write: () => {} }),
      now: Date.now,
      owner: 'p2',
    });
    try {
      await box.edit('c1', 'm9', view('submitted'), RANK.submitted);
      box.kick();
      await expect.poll(() => sent).toEqual(['submitted']);
      // The result arrives while Discord has not answered the "submitted" edit yet.
      await box.edit('c1', 'm9', view('placed'), RANK.final);
      release();
      await box.idle();
      expect(sent).toEqual(['submitted', 'placed']);
      expect(await box.unrecorded([stage('m9', RANK.final)])).toEqual([]);
    } finally {
      await box.stop();
    }
  });
});
