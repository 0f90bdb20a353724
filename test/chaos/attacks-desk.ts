// Attacks on the desk's interaction handling, run with the other scenarios by `npm run chaos`.

import { GUARD_TEXT } from '../../src/bot/discord/component-guard.js';
import { STAKE_HINT } from '../../src/bot/model/money.js';
import { newTrail, openSlip, pickEvent } from '../support/flows.js';
import { forgedAnswer, moneyTrail, SCOPES, scopeControls } from '../support/forged-clicks.js';
import { startDesk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { until } from '../support/wait.js';
import { emptyResult, type ScenarioResult } from './tally.js';

/**
 * For every component scope, a real control's custom id sent from a second server (where the clicker has Manage
 * Server) and from another message or channel of the syndicate's server: each clicker is told no, and nothing
 * moves (no bet, no ledger entry, no approval, no proposal state, no slip).
 */
export async function crossGuildClicks(): Promise<ScenarioResult> {
  const r = emptyResult('cross-guild and cross-message clicks');
  const desk = await startDesk({ webhooks: false });
  try {
    const tiers = await desk.ld.sendCommand({
      user: desk.ld.users.admin,
      channelId: desk.ld.channelIds.bets,
      name: 'settings',
      subcommand: 'approvals',
      options: { t1: 10, t2: 100 },
    });
    await until('the tiers saved', () => tiers.responses().find((m) => /Saved/.test(m.content ?? '')), {
      timeoutMs: 20_000,
    });
    const controls = await scopeControls(desk, {
      sel: await pickEvent(desk, 'nba'),
      slipStake: 5,
      proposalStake: 20,
    });
    const missing = SCOPES.filter((s) => !controls.some((c) => c.scope === s));
    if (missing.length > 0) r.notes.push(`no control found for ${missing.join(', ')}`);
    const before = await moneyTrail(desk);
    const other = controls.find((c) => c.scope === 'cmp')?.message.id;
    let refused = 0;
    let total = 0;
    for (const c of controls) {
      const tries: Array<[string, Parameters<typeof forgedAnswer>[3], string]> = [
        ['another server', { channelId: desk.ld.elsewhere.channelId }, GUARD_TEXT.guild],
        c.messageBound && other
          ? ['another message', { channelId: desk.ld.channelIds.bets, messageId: other }, GUARD_TEXT.message]
          : ['another channel', { channelId: desk.ld.channelIds.results }, GUARD_TEXT.channel],
      ];
      for (const [where, at, expected] of tries) {
        total += 1;
        const answer = await forgedAnswer(desk, desk.ld.users.viewer, c, at).catch((err) => `(${err.message})`);
        if (answer === expected) refused += 1;
        else r.notes.push(`${c.customId} from ${where}: ${answer.slice(0, 160)}`);
      }
    }
    const after = await moneyTrail(desk);
    if (after !== before) r.notes.push(`something moved: ${before} → ${after}`);
    r.survived = missing.length === 0 && refused === total && after === before;
    r.notes.push(
      `${refused}/${total} forged clicks refused across ${controls.length} controls; nothing moved: ${after === before}`,
    );
  } finally {
    await desk.close();
  }
  return r;
}

/**
 * Stakes typed into the stake form with commas: a decimal comma or a comma out of its thousands groups is refused
 * with a sentence saying how to write the stake, and no slip is made; a stake written with a dot is taken as is.
 */
export async function stakesWithSeparators(): Promise<ScenarioResult> {
  const r = emptyResult('stakes with separators');
  const desk = await startDesk({ webhooks: false });
  try {
    const sel = await pickEvent(desk, 'nba');
    const user = desk.ld.users.bettor;
    const slips = () => desk.bot.store.query<{ n: number }>('SELECT COUNT(*) AS n FROM slips');
    let ok = 0;
    const refused = ['5,00', '1,2,3', '12,50', '1.000,50', '1,25'];
    for (const stake of refused) {
      const before = Number((await slips())[0]?.n);
      const { slip: reply } = await openSlip(desk, newTrail(), { user, epk: sel.epk, bookie: sel.bookie, stake });
      const text = textOf(reply);
      const made = Number((await slips())[0]?.n) - before;
      if (text.includes(STAKE_HINT) && made === 0) ok += 1;
      else r.notes.push(`"${stake}": ${made} slip(s); answer ${text.slice(0, 160)}`);
    }
    const { handle } = await openSlip(desk, newTrail(), { user, epk: sel.epk, bookie: sel.bookie, stake: '12.50' });
    const slip = await until('the 12.50 slip', () =>
      handle.responses().find((m) => /Bet slip/.test(textOf(m)) && textOf(m).includes('$12.50')),
    ).catch(() => undefined);
    const dotted = slip !== undefined;
    if (!dotted) r.notes.push(`"12.50": ${handle.responses().map(textOf).join(' | ').slice(0, 160)}`);
    r.survived = ok === refused.length && dotted;
    r.notes.push(`${ok}/${refused.length} comma stakes refused with how to write them; 12.50 taken: ${dotted}`);
  } finally {
    await desk.close();
  }
  return r;
}
