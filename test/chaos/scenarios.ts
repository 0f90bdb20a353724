import { updateSettings } from '../../src/bot/settings/guild-settings.js';
import { signWebhook } from '../../src/gateway/webhooks.js';
import { spawnBot, spawnReadyBot } from '../support/bot-child.js';
import { betSlip, messageMatching, newTrail, pickEvent, press, SlipRefusedError } from '../support/flows.js';
import { API_KEY, type Desk, startDesk } from '../support/harness.js';
import { textOf } from '../support/messages.js';
import { until } from '../support/wait.js';
import { fuzzCommands } from './command-fuzz.js';
import { findSecrets } from './secrets.js';
import { emptyResult, type ScenarioResult } from './tally.js';
import { FUZZ_ID_PREFIX } from './webhook-cases.js';
import { fuzzWebhooks } from './webhook-fuzz.js';

const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1);

const FINAL = /Bet placed ✅|Bet not placed|Bet result unknown/;

/**
 * A stuck price check keeps the user waiting until its timeout_at (minutes away). While any tracked work is
 * still pending a second and a half on, move the sandbox clock past any job's timeout so the bot gets its
 * "timeout" answer. One skipper serves every bet in flight, so concurrent bets do not multiply the clock moves.
 */
function stuckJobSkipper(desk: Desk): <T>(work: Promise<T>) => Promise<T> {
  let pending = 0;
  let looping = false;
  const loop = async () => {
    looping = true;
    while (pending > 0) {
      await new Promise((x) => setTimeout(x, 1500));
      if (pending > 0) await desk.control.advance(6 * 60_000).catch(() => undefined);
    }
    looping = false;
  };
  return <T>(work: Promise<T>) => {
    pending += 1;
    if (!looping) void loop();
    return work.finally(() => {
      pending -= 1;
    });
  };
}

/** Counts edits of one message that show a final result. */
function watchFinalEdits(desk: Desk, messageId: string): { count(): number; stop(): void } {
  let n = 0;
  const listener = (e: { message: { id: string } }) => {
    if (e.message.id === messageId && FINAL.test(textOf(desk.ld.message(messageId)))) n += 1;
  };
  desk.ld.events.on('messageUpdate', listener);
  return { count: () => n, stop: () => desk.ld.events.off('messageUpdate', listener) };
}

async function betsWithStake(desk: Desk, stake: number): Promise<number> {
  return (await desk.control.state()).bets.filter((b) => b.bet.stake === stake).length;
}

/** 10,000 (or `count`) hostile webhook requests at the running bot's receiver: none accepted, no crash. */
export async function webhookFuzz(count: number): Promise<ScenarioResult> {
  const r = emptyResult(`webhook fuzz ×${count}`);
  const desk = await startDesk({ webhooks: true });
  try {
    const report = await fuzzWebhooks({
      url: desk.bot.receiverUrl,
      apiKey: API_KEY,
      otherKey: 'sandbox-key-bravo',
      maxBodyBytes: desk.config.tunables.webhookMaxBodyBytes,
      count,
      seed: 20_260_101,
      now: desk.now,
    });
    const stored = await desk.bot.store.query<{ n: number }>(
      'SELECT COUNT(*) AS n FROM webhook_deliveries WHERE correlation_id LIKE ?',
      `${FUZZ_ID_PREFIX}%`,
    );
    const health = await fetch(`${desk.bot.receiverUrl}/healthz`).then(
      (x) => x.status,
      () => 0,
    );
    r.crashes = report.serverErrors + (health === 200 ? 0 : 1);
    r.survived = report.accepted === 0 && (stored[0]?.n ?? 0) === 0 && r.crashes === 0;
    r.notes.push(
      `sent ${report.sent}, accepted ${report.accepted}, deduped replays ${report.deduped}, statuses ${JSON.stringify(report.byStatus)}`,
    );
  } finally {
    await desk.close();
  }
  return r;
}

/** Fuzzed slash-command option sets through the local Discord: each acknowledged in 3 s with a clear reply. */
export async function commandFuzz(count: number): Promise<ScenarioResult> {
  const r = emptyResult(`command fuzz ×${count}`);
  const desk = await startDesk({ webhooks: false });
  try {
    const sel = await pickEvent(desk, 'nba', 0);
    const report = await fuzzCommands({
      ld: desk.ld,
      count,
      seed: 424_242,
      lateWaitMs: 45_000,
      realStrings: [sel.epk, sel.bookie, sel.market, sel.marketRef, 'nba', 'bookie_b', sel.epk.split('/').at(-1)!],
    });
    r.survived = report.failures.length === 0 && report.sent > 0;
    r.notes.push(
      `sent ${report.sent}, acknowledged ${report.acknowledged} (slowest ${report.slowestAckMs} ms), answered ${report.answered}`,
      ...report.failures
        .slice(0, 5)
        .map((f) => `/${f.case.name} ${JSON.stringify(f.case.options).slice(0, 200)}: ${f.problem}`),
    );
    const leaks = findSecrets(
      {
        messages: Object.values(desk.ld.channelIds).flatMap((c) => desk.ld.messages(c).map((m) => JSON.stringify(m))),
        logs: desk.logs.lines,
      },
      desk.secrets,
    );
    if (leaks.length > 0) {
      r.survived = false;
      r.notes.push(`secret leaked: ${leaks[0]}`);
    }
  } finally {
    await desk.close();
  }
  return r;
}

/**
 * The same signed webhook four times at once while the poller races them: the slip is edited once.
 * Polls are held at a proxy until the sandbox has the result, then released together with the deliveries.
 */
export async function duplicateDeliveries(): Promise<ScenarioResult> {
  const r = emptyResult('webhook ×4 + poller race');
  const desk = await startDesk({ webhooks: false, proxy: true });
  try {
    const sel = await pickEvent(desk, 'nba', 1);
    const trail = newTrail();
    const stake = 7;
    const { slip } = await betSlip(desk, trail, { user: desk.ld.users.bettor, sel, stake });
    desk.proxy!.hold('/api/bet_status');
    const edits = watchFinalEdits(desk, slip.id);
    await press(desk, trail, desk.ld.users.bettor, slip, /^Confirm$/);
    await messageMatching(desk, slip, /Bet submitted/);
    const jobs = await desk.bot.store.query<{ correlation_id: string }>(
      "SELECT correlation_id FROM jobs WHERE kind = 'bet' ORDER BY created_at DESC LIMIT 1",
    );
    const correlationId = jobs[0]!.correlation_id;
    // Read the finished result straight from the sandbox, as the gateway's webhook would carry it.
    let entry: { status: string; result?: unknown } | undefined;
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const res = await fetch(`${desk.sandbox.url}/api/bet_status`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
        body: JSON.stringify({ correlation_ids: [correlationId] }),
      });
      entry = ((await res.json()) as { statuses: Array<{ status: string; result?: unknown }> }).statuses[0];
      if (entry?.status !== 'pending') break;
      await new Promise((x) => setTimeout(x, 100));
    }
    const body = Buffer.from(
      JSON.stringify({
        correlation_id: correlationId,
        result: entry?.result,
        metadata: { bookie: sel.bookie, username: null, session_id: null },
        delivered_at: new Date(desk.now()).toISOString(),
      }),
    );
    const deliver = () =>
      fetch(`${desk.bot.receiverUrl}/webhooks/gateway`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'bet-signature': signWebhook(body, API_KEY),
          'bet-correlation-id': correlationId,
        },
        body,
      }).then((x) => x.status);
    desk.proxy!.release();
    const statuses = await Promise.all([deliver(), deliver(), deliver(), deliver()]);
    await messageMatching(desk, slip, FINAL, 15_000);
    await new Promise((x) => setTimeout(x, 2500)); // a poll interval more: nothing else edits it
    edits.stop();
    const placed = await betsWithStake(desk, stake);
    r.duplicateBets = Math.max(0, placed - 1);
    r.survived = edits.count() === 1 && placed === 1 && statuses.every((s) => s === 200);
    r.notes.push(`receiver answered ${statuses.join(',')}; final edits ${edits.count()}; bets ${placed}`);
  } finally {
    await desk.close();
  }
  return r;
}

/** kill -9 of the bot process between a bet's 202 and its result; after a restart the result is posted once. */
export async function killNine(): Promise<ScenarioResult> {
  const r = emptyResult('kill -9 between 202 and result');
  const desk = await startDesk({ webhooks: true, proxy: true, inProcessBot: false });
  let child = await spawnReadyBot(desk);
  try {
    const sel = await pickEvent(desk, 'nba', 2);
    const trail = newTrail();
    const stake = 9;
    const { slip } = await betSlip(desk, trail, { user: desk.ld.users.bettor, sel, stake });
    desk.proxy!.hold('/api/bet_status');
    const edits = watchFinalEdits(desk, slip.id);
    await press(desk, trail, desk.ld.users.bettor, slip, /^Confirm$/);
    await messageMatching(desk, slip, /Bet submitted/);
    await child.kill9();
    const early = FINAL.test(textOf(desk.ld.message(slip.id)));
    // The double may keep a killed session around until its heartbeat lapses; the new process identifies anyway.
    await until('the gateway session to drop', () => desk.ld.connectedBots === 0, {
      timeoutMs: 3_000,
    }).catch(() => undefined);
    child = await spawnBot(desk.env);
    desk.proxy!.release();
    await messageMatching(desk, slip, FINAL, 40_000).catch(() => undefined);
    await new Promise((x) => setTimeout(x, 2500));
    edits.stop();
    const finalShown = FINAL.test(textOf(desk.ld.message(slip.id)));
    const placed = await betsWithStake(desk, stake);
    r.lostResults = finalShown ? 0 : 1;
    r.duplicateBets = Math.max(0, placed - 1);
    r.survived = finalShown && edits.count() === 1 && placed === 1;
    r.notes.push(`result before the kill: ${early}; final edits ${edits.count()}; bets ${placed}`);
  } finally {
    const exit = await Promise.race([child.exited, Promise.resolve(undefined)]);
    if (exit) r.crashes += 1;
    await child.stop();
    await desk.close();
  }
  return r;
}

/**
 * 30 % 5xx and latency spikes on reads, jobs that never complete, webhook deliveries refused: users keep
 * getting acknowledged, clear answers, and every confirmed bet ends in a result or a reported timeout.
 */
export async function faultStorm(bets: number, browses: number): Promise<ScenarioResult> {
  const r = emptyResult(`fault storm (${bets} bets, ${browses} reads)`);
  const desk = await startDesk({ webhooks: true });
  try {
    const sels = await Promise.all([0, 1, 2].map((i) => pickEvent(desk, 'nba', i)));
    const started = Date.now();
    await desk.control.faults({
      latency: { fixedMs: 10, spikeProbability: 0.1, spikeMs: 2500 },
      errorRates: { '/odds/v1/events': 0.3, '/v3/markets': 0.3, '/api/session_ids': 0.3, '/api/bet_status': 0.3 },
      stuckJobs: 0.3,
      webhookFailures: 1,
    });
    const fuzz = await fuzzCommands({
      ld: desk.ld,
      count: browses,
      seed: 99,
      realStrings: sels.flatMap((s) => [s.epk, s.bookie, s.marketRef]),
    });
    r.notes.push(
      `reads under faults: ${fuzz.sent} sent, ${fuzz.answered} answered, ${fuzz.failures.length} failures (${seconds(started)} s)`,
    );
    for (const f of fuzz.failures.slice(0, 3)) r.notes.push(`  /${f.case.name}: ${f.problem}`);
    // The fuzzed reads include /settings (a bet role, limits, sessions): the bets start from the defaults.
    await updateSettings(desk.bot.store, desk.ld.guildId, () => ({
      timezone: 'UTC',
      sessions: {},
      betRoleId: desk.ld.roleIds.bettor,
    }));
    const slips: string[] = [];
    let unanswered = fuzz.failures.length;
    let refused = 0;
    let keptOpen = 0;
    const skipStuckJobs = stuckJobSkipper(desk);
    const placeOne = async (i: number) => {
      const trail = newTrail();
      const sel = sels[i % sels.length]!;
      try {
        const { slip } = await skipStuckJobs(
          // Longer than the bot's own 20 s price-check deadline, so its answer is never raced.
          betSlip(desk, trail, { user: desk.ld.users.bettor, sel, stake: 1 + i, timeoutMs: 35_000 }),
        );
        const click = await press(desk, trail, desk.ld.users.bettor, slip, /^Confirm$/);
        // The answer is the slip's own update, or (a read failed before anything was sent) a private reply
        // saying nothing was placed and the slip is still open.
        const answer = await skipStuckJobs(
          until(
            'an answer to Confirm',
            () => {
              if (/Bet submitted|Bet placed|Bet result|Not placed|not placed/i.test(textOf(desk.ld.message(slip.id)))) {
                return 'slip';
              }
              return click.responses().some((m) => /Nothing was placed/.test(textOf(m))) ? 'kept open' : undefined;
            },
            { timeoutMs: 35_000 },
          ),
        );
        if (answer === 'slip') slips.push(slip.id);
        else {
          keptOpen += 1;
          r.notes.push(`  bet ${i + 1}: Confirm answered privately, slip kept open (a read failed before sending)`);
        }
      } catch (err) {
        // A slip refused because a read failed is fine when the user was told so; silence is not.
        if (err instanceof SlipRefusedError) {
          refused += 1;
          r.notes.push(`  bet ${i + 1} refused: ${err.reply.slice(0, 160)}`);
        } else {
          unanswered += 1;
          r.notes.push(`  bet ${i + 1}: ${String((err as Error).message).slice(0, 300)}`);
          // What the bot itself last complained about, to tell a slow dependency from a stuck handler.
          for (const line of desk.logs.lines.filter((l) => /warn|error/i.test(l)).slice(-2)) {
            r.notes.push(`    log: ${line.slice(0, 300)}`);
          }
        }
      }
    };
    // Four members' worth of bets at once, as a busy evening would send them; each waits for its own answer.
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(4, bets) }, async () => {
        while (next < bets) await placeOne(next++);
      }),
    );
    // Stuck jobs end at timeout_at: move the sandbox clock past it and let the poller see "timeout".
    await desk.control.faults({});
    await desk.control.advance(6 * 60_000);
    let lost = 0;
    for (const id of slips) {
      const shown = textOf(desk.ld.message(id));
      if (/Bet submitted/.test(shown)) {
        const ok = await until('a final edit', () => FINAL.test(textOf(desk.ld.message(id))), {
          timeoutMs: 30_000,
        }).catch(() => false);
        if (!ok) lost += 1;
      }
    }
    r.lostResults = lost;
    r.survived = lost === 0 && unanswered === 0 && fuzz.failures.length === 0;
    r.notes.push(
      `confirmed slips ${slips.length}, refused with a reason ${refused}, kept open with a reason ${keptOpen}, lost results ${lost}, unanswered ${unanswered} (${seconds(started)} s)`,
    );
  } finally {
    await desk.close();
  }
  return r;
}
