// A treasurer's week in the offline playground, as docs/fund.md tells it (issue 45): the fund's first account, the
// strikes that deal a contribution and a cash-out (each post saying what it dealt, member by member, in #results too),
// a fund bet to its settlement, /fund paid, /fund report with its chart and /fund tipsters to the cent. Each step's
// text is read as a member reads it: no record's UUID outside a "For support:" footer, no JSON, no snake_case code.
import { describe, expect, it } from 'vitest';
import {
  answer,
  app,
  betWhereABookTakesIt,
  choicesAfterTyping,
  count,
  fieldOf,
  jargonIn,
  page,
  pageErrors,
  pressPanel,
  readText,
  screenshot,
  send,
  sendPicking,
  suggestsAStake,
  type,
  usePlayground,
} from './playground-page.js';

usePlayground('treasurer-week');

const STRUCK = /Struck\.|Not struck/;
const week: { betId?: string; pnl?: string; redeemedFor?: string } = {};

const field = fieldOf;

async function as(persona: 'admin' | 'bettor') {
  await page.locator('#persona').selectOption(persona);
  await expect.poll(() => page.locator('#persona').inputValue()).toBe(persona);
}

/** `/fund strike` as the treasurer; the answer, which must have struck. */
async function strike() {
  const before = await count(STRUCK);
  await send('/fund strike');
  const struck = await answer(STRUCK, before);
  await expect(struck.textContent()).resolves.toMatch(/Struck\./);
  expect(jargonIn(await readText(struck))).toEqual([]);
  return struck;
}

/** The strike post in #results that names `dealt` (the bot posts each strike there, docs/fund.md). */
async function postedInResults(dealt: string) {
  await page.locator('.channel-link[data-channel="results"]').click();
  await expect(page.locator('#channel-name').textContent()).resolves.toBe('results');
  const post = page.locator('discord-message', { hasText: dealt }).last();
  await post.waitFor({ timeout: 20_000 });
  expect(jargonIn(await readText(post))).toEqual([]);
  return post;
}

async function backToBets() {
  await page.locator('.channel-link[data-channel="bets"]').click();
  await expect(page.locator('#channel-name').textContent()).resolves.toBe('bets');
}

describe("a treasurer's week in the playground, as docs/fund.md tells it", () => {
  it("Monday: the fund's first account and the opening strike, word for word from 'Offline, in the playground'", async () => {
    await page.goto(`${app.playgroundUrl}/?as=admin`);
    await page.locator('body[data-ready="true"]').waitFor();
    // "1. /fund accounts action:add session:bookie_a, picking bookie_a/alpha_a from the list, then
    // opening_member:@admin: the money already in bookie_a/alpha_a is Ada's opening bank."
    let before = await count('Added bookie_a/');
    await sendPicking('/fund accounts action:add session:', 'session', 'bookie_a', 'opening_member:@admin');
    const added = await answer('Added bookie_a/', before);
    await expect(readText(added)).resolves.toMatch(
      /Added bookie_a\/alpha_a to the fund \(it holds \$[\d,]+\.\d\d\)\. \$[\d,]+\.\d\d is @Ada \(admin\)'s opening contribution/,
    );
    // "2. /fund strike: Ada's opening bank buys units at $1.00."
    const opening = await strike();
    await expect(readText(opening)).resolves.toMatch(
      /Units issued: @Ada \(admin\) [\d,]+\.000000 for \$[\d,]+\.\d\d \(at \$1\.000000 a unit\)/,
    );

    // "(or POST /_sandbox/deposit)": the panel says where the sandbox answers.
    await expect(page.locator('#sandbox-url').textContent()).resolves.toBe(app.sandboxUrl);
    // "3. Press Deposit $100 in the Sandbox panel: $100.00 arrives in bookie_a/alpha_a."
    await pressPanel(
      'Deposit $100',
      /^\$100\.00 arrived in bookie_a\/alpha_a, one of the fund's accounts\. A treasurer records whose money it is: \/fund contribute/,
    );
    // "4. /fund contribute member:@bettor amount:100 session:bookie_a, picking bookie_a/alpha_a from the list."
    before = await count('Recorded:');
    await sendPicking('/fund contribute member:@bettor amount:100 session:', 'session', 'bookie_a');
    const recorded = await answer('Recorded:', before);
    await expect(readText(recorded)).resolves.toMatch(/@Ben \(bettor\) contributed \$100\.00 into bookie_a\/alpha_a/);
    // "5. Press Advance 1 hour: the bookmaker's balance catches up with the deposit. 6. /fund strike: Ben's $100 buys
    // units at the strike's price."
    await pressPanel('Advance 1 hour', /Advance 1 hour: done/);
    const second = await strike();
    // "The post in the results channel says what it dealt, member by member ("Units issued: @Ann 48.580000 for
    // $50.00")": Ben's units, for his $100.00.
    const issued = 'Units issued: @Ben (bettor) 100.000000 for $100.00';
    await expect(readText(second)).resolves.toContain(issued);
    await expect(readText(second)).resolves.not.toMatch(/Waiting for their deposit|awaiting dealing/);
    await screenshot('treasurer-week-1-strike', second);
    const posted = await postedInResults(issued);
    await expect(posted.locator('discord-embed').first().getAttribute('embed-title')).resolves.toMatch(/^Fund strike/);
    await backToBets();

    // "As Ben — bettor, /fund me shows them."
    await as('bettor');
    before = await count('Your share of the fund');
    await send('/fund me');
    const me = await answer('Your share of the fund', before);
    await expect(me.textContent()).resolves.toMatch(/100\.000000 units worth \$100\.00/);
    await expect(field(me, 'Contributed')).resolves.toContain('$100.00');
    expect(jargonIn(await readText(me))).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it("/settings show with the fund open names the fund's NAV as the bank, its accounts and the fee", async () => {
    await as('admin');
    const before = await count('Desk settings');
    await send('/settings show');
    const shown = await answer('Desk settings', before);
    const staking = await field(shown, 'Staking');
    expect(staking).toMatch(/bank: the fund's NAV, \$[\d,]+\.\d\d at its strike of/);
    expect(staking).toMatch(/bets through other accounts are outside the fund/);
    expect(staking).not.toMatch(/not set/);
    const fund = await field(shown, 'Fund');
    expect(fund).toMatch(/accounts: bookie_a\/alpha_a/);
    expect(fund).toMatch(/performance fee: off/);
    expect(pageErrors).toEqual([]);
  });

  it("midweek: Ben's /bet goes to the fund's account, and settles in #results", async () => {
    await as('bettor');
    // members.md: "/bet with no book … pick the best price among the fund's accounts only (the slip lists the other
    // books as outside the fund)".
    const slips = page.locator('discord-message', { hasText: 'confirm your bet' });
    // An event whose slip has a fair price, so a suggested stake, and that other books list too, so the slip has
    // books to leave out (which events come first depends on the hour: at 03:00 an AFL game listed at bookie_a alone).
    const leavesBooksOut = async (slip: typeof slips) =>
      (await suggestsAStake(slip)) && /Left out: /.test(await readText(slip));
    await betWhereABookTakesIt(5, slips, 'Head to Head', leavesBooksOut);
    const slip = slips.last();
    const said = await readText(slip);
    expect(said).toMatch(/The one book that can take it: bookie_a \d+\.\d\d/);
    // fund.md: "left out: outside the fund", said once for the books it leaves out, no parenthesis in another.
    expect(said).toMatch(/Left out: bookie_\w(, bookie_\w)* \(outside the fund: [^()]*\)/);
    // Sized from the fund's NAV at its last strike, $1,600.00 (docs/fund.md).
    await expect(field(slip, 'Suggested stake')).resolves.toMatch(/Kelly of the \$1,600\.00 bank/);
    expect(jargonIn(said)).toEqual([]);
    await screenshot('treasurer-week-2-fund-slip', slip);
    const slipId = await slip.getAttribute('data-message-id');
    await slip.locator('discord-button', { hasText: 'Confirm' }).click();
    const receipt = page.locator(`discord-message[data-message-id="${slipId}"]`);
    await receipt.locator('discord-embed[embed-title="Bet placed ✅"]').waitFor({ timeout: 30_000 });
    week.betId = await field(receipt, 'Bet id');

    await pressPanel('Advance 1 day', /Advance 1 day: done/);
    await pressPanel('Settle started events', /^Started events finished/);
    await page.locator('.channel-link[data-channel="results"]').click();
    const settled = page
      .locator('discord-message', {
        has: page.locator('discord-embed-field[field-title="Bet id"]', { hasText: week.betId }),
      })
      .filter({ has: page.locator('discord-embed-field[field-title="Returned"]') });
    await settled.first().waitFor({ timeout: 30_000 });
    week.pnl = await field(settled.first(), 'P&L');
    expect(week.pnl).toMatch(/^[+-]?\$\d+\.\d\d$/);
    await backToBets();
    expect(pageErrors).toEqual([]);
  });

  it('Friday: Ben cashes out; the strike says whose units it redeemed for how much; /fund paid marks it paid', async () => {
    // "A member asks /fund cashout all:true (or an amount, or units); the answer is private."
    await as('bettor');
    let before = await count('Fund cash-out');
    await send('/fund cashout all:true');
    const asked = await answer('Fund cash-out', before);
    await expect(asked.getAttribute('ephemeral')).resolves.not.toBeNull();
    expect(jargonIn(await readText(asked))).toEqual([]);
    await as('admin');
    // "The gateway's balance is a cache refreshed on each session heartbeat: a strike right after a bet move waits for
    // the next refresh": the bet settled a moment ago, so the treasurer moves the clock an hour on first.
    await pressPanel('Advance 1 hour', /Advance 1 hour: done/);
    const struck = await strike();
    // "Units redeemed: @Ben 100.000000 for $102.92".
    const redeemed = /Units redeemed: @Ben \(bettor\) 100\.000000 for (\$\d+\.\d\d)/.exec(await readText(struck));
    expect(redeemed, await readText(struck)).not.toBeNull();
    week.redeemedFor = redeemed?.[1];
    await screenshot('treasurer-week-3-redeemed', struck);
    await postedInResults(`Units redeemed: @Ben (bettor) 100.000000 for ${week.redeemedFor}`);
    await backToBets();

    // "Once the withdrawal completes, the treasurer pays the member and records it: /fund paid cashout: lists the
    // withdrawn cash-outs awaiting payment by member and amount."
    const input = page.locator('#command-input');
    await input.click();
    await input.fill('');
    await type('/fund paid cashout:');
    const offered = page
      .locator('#suggestions .suggestion', { has: page.locator('.suggestion-detail', { hasText: 'cashout' }) })
      .filter({ hasText: new RegExp(`Ben.*\\${week.redeemedFor} · withdrawn`) });
    // Until the withdrawal completes there is nothing to pay: the person types again.
    await expect
      .poll(
        async () => {
          if ((await offered.count()) > 0) return true;
          await type('x');
          await page.keyboard.press('Backspace');
          await choicesAfterTyping('cashout', '', 1);
          return (await offered.count()) > 0;
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe(true);
    expect(jargonIn((await page.locator('#suggestions').textContent()) ?? '')).toEqual([]);
    await offered.first().click();
    before = await count('Marked paid');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await expect((await answer('Marked paid', before)).textContent()).resolves.toContain(week.redeemedFor);
    expect(pageErrors).toEqual([]);
  });

  it("/fund report with its chart, and /fund tipsters crediting Ben with the bet's P&L to the cent", async () => {
    // "/fund report [period] (default week) shows the same on demand with a chart of the period's fund bets … so one
    // settled bet already draws it."
    let before = await count("The fund's report");
    await send('/fund report');
    const report = await answer("The fund's report", before);
    await expect(field(report, 'P&L by tipster')).resolves.toMatch(/@Ben \(bettor\): /);
    // Leagues by name ("Darts", "NBA"), never the gateway's code for them.
    await expect(field(report, 'By league')).resolves.toMatch(/^[A-Z]/);
    await expect(readText(report)).resolves.not.toMatch(/The chart of the period: \/fund report/);
    const chart = report.locator('img.discord-embed-image');
    await expect
      .poll(() => chart.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 10_000 })
      .toBe(true);
    expect(jargonIn(await readText(report))).toEqual([]);
    await screenshot('treasurer-week-4-report', report);

    // "/fund tipsters: … the lines add up to the fund's line to the cent": one bet, Ben's, its P&L the settlement's.
    before = await count('the sum of the lines above');
    await send('/fund tipsters');
    const tipsters = await answer('the sum of the lines above', before);
    const said = await readText(tipsters);
    const pnl = (week.pnl ?? '').replace(/^\+/, '');
    expect(said).toContain(`@Ben (bettor): ${pnl} (100.0% of the fund's) · 1 bet, $5.00 staked`);
    expect(said).toContain(`Fund: ${pnl} on $5.00 staked over 1 bet`);
    expect(jargonIn(said)).toEqual([]);
    await screenshot('treasurer-week-5-tipsters', tipsters);
    expect(pageErrors).toEqual([]);
  });
});
