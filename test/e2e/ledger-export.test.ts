import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger, ledgerCsv } from '../../src/bot/ledger/ledger-repo.js';
import { type Desk, startDesk } from '../support/bot-desk.js';
import { until } from '../support/wait.js';

/** /ledger export through the local Discord: the CSV of this server's entries arrives as an attachment. */
describe('/ledger export', () => {
  let desk: Desk;
  beforeAll(async () => {
    desk = await startDesk();
  }, 60_000);
  afterAll(() => desk?.close());

  const admin = async (subcommand: string, options: Record<string, string | number>, done: RegExp) => {
    const { ld } = desk;
    const ix = await ld.sendCommand({
      user: ld.users.admin,
      channelId: ld.channelIds.bets,
      name: subcommand === 'limits' ? 'settings' : 'ledger',
      subcommand,
      options,
    });
    const text = (m: { content?: string; embeds: unknown[] }) => `${m.content ?? ''}${JSON.stringify(m.embeds)}`;
    const reply = await until(`the ${subcommand} reply`, () => ix.responses().find((m) => done.test(text(m))), {
      timeoutMs: 15_000,
    });
    return { ...reply, text: text(reply) };
  };

  it('attaches the entries of the chosen days as CSV, the limit change among them', async () => {
    await admin('limits', { per_bet: 30, per_day: 90 }, /Saved/);
    const reply = await admin('export', {}, /ledger entr/);
    const entries = await new Ledger(desk.bot.store).range(desk.ld.guildId, 0, desk.now() + 86_400_000);
    expect(entries.map((e) => e.kind)).toEqual(['limit_change']);
    expect(reply.content).toMatch(/^1 ledger entry from \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2} \(UTC\)\.$/);
    const [file] = reply.attachments;
    expect(file?.filename).toMatch(/^ledger-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(file?.size).toBe(Buffer.byteLength(ledgerCsv(entries)));
  });

  it('refuses a date that is not YYYY-MM-DD and says what to type', async () => {
    const reply = await admin('export', { from: '22/11/2026' }, /not a date/);
    expect(reply.text).toMatch(/\\"22\/11\/2026\\" is not a date\. Use YYYY-MM-DD/);
  });
});
