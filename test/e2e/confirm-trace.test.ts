// The call path of one Confirm, from the slip's button to the gateway's place_bet (issue 31: "enters no folder twice
// except to hand the gate's answer back"). V8 keeps `at async` frames across awaits, so a stack taken when the
// library sends place_bet names every call between the button's handler and the send. The gate has returned by
// then, so its branch is taken where it reads the server's settings (its one read per Confirm, see
// tier-at-confirm.test.ts), and its answer is seen arriving at Placement.confirm. The stacks, in the order they were
// taken, make a walk: down the gate's branch, back to the handler, down to place_bet. That one return, the gate's
// answer handed back to the handler that gives it to Placement.confirm, is the only step allowed to enter a folder
// the walk had left. A call that returns before place_bet leaves no frame on these stacks unless it reads the
// server's settings (a second gate would).
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Bettable } from '../../src/bot/betting/handlers/bet-gate.js';
import { type RunningBot, startBot } from '../../src/bot/index.js';
import { reentries, type Step, type Stop, stopsOf, traceText, walkOf } from '../support/call-trace.js';
import { betSlip, messageMatching, newTrail, pickEvent, press } from '../support/flows.js';
import { type Desk, startDesk } from '../support/harness.js';
import { until } from '../support/wait.js';

const HANDLER = 'src/bot/betting/handlers/slip.ts:slipConfirm';
const CONFIRM = 'src/bot/betting/placement.ts:Placement.confirm';
const at = (s: Stop) => `${s.file}:${s.fn}`;

describe('the call path of a Confirm, button to place_bet', () => {
  let desk: Desk<RunningBot>;
  let steps: Step[];
  let handBack: Step | undefined;
  const stackLimit = Error.stackTraceLimit;

  /** Every stack taken, from the button's handler in (a stack with no handler frame is not this click's). */
  function fromHandler(stack: string | undefined): Stop[] {
    const stops = stopsOf(stack ?? '');
    const start = stops.findIndex((s) => s.folder.endsWith('/handlers'));
    return start < 0 ? [] : stops.slice(start);
  }

  beforeAll(async () => {
    desk = await startDesk<RunningBot>({ webhooks: false, startBot: (config, deps) => startBot(config, deps) });
    const sel = await pickEvent(desk, 'nba');
    const { slip } = await betSlip(desk, newTrail(), { user: desk.ld.users.bettor, sel, stake: 5 });
    Error.stackTraceLimit = Number.POSITIVE_INFINITY;
    const stacks: Stop[][] = [];
    let placed = false;
    const gateway = new URL(desk.sandbox.url).origin;
    const onRequest = (message: unknown) => {
      const { request } = message as { request: { origin: unknown; path: string } };
      if (placed || String(request.origin) !== gateway || request.path !== '/v3/place_bet') return;
      placed = true;
      stacks.push(fromHandler(new Error().stack));
    };
    const kv = desk.bot.store.kv;
    const read = kv.get.bind(kv) as (...args: unknown[]) => unknown;
    const reads = vi.spyOn(kv, 'get').mockImplementation(((key: string, ...rest: unknown[]) => {
      if (!placed && key === `guild:${desk.ld.guildId}`) stacks.push(fromHandler(new Error().stack));
      return read(key, ...rest);
    }) as typeof kv.get);
    // Placement.confirm wrapped by hand: an async wrapper that awaits keeps the `at async` frames above it, which a
    // vi.spyOn (it hands on a promise of its own) would cut.
    const placement = desk.bot.context.placement;
    const confirm = placement.confirm;
    const handed: Array<Bettable | undefined> = [];
    placement.confirm = async function (this: typeof placement, ...args: Parameters<typeof confirm>) {
      handed.push(args[3]?.gate as Bettable | undefined);
      return await confirm.apply(this, args);
    };
    subscribe('undici:request:create', onRequest);
    try {
      await press(desk, newTrail(), desk.ld.users.bettor, slip, /^Confirm$/);
      await until('place_bet sent', () => placed, { timeoutMs: 20_000 });
      await messageMatching(desk, slip, /Bet placed/, 20_000);
    } finally {
      unsubscribe('undici:request:create', onRequest);
      reads.mockRestore();
      Reflect.deleteProperty(placement, 'confirm');
      Error.stackTraceLimit = stackLimit;
    }
    steps = walkOf(stacks.filter((s) => s.length > 0));
    // The gate's answer, handed to Placement.confirm as opts.gate, arrived there.
    const gateArrived = handed.some((gate) => gate?.guildId === desk.ld.guildId);
    // The hand-back: a return to the button's handler whose next step is its call of Placement.confirm.
    handBack = steps.find(
      (s, i) =>
        gateArrived && s.move === 'return' && at(s.stop) === HANDLER && at(steps[i + 1]?.stop ?? s.stop) === CONFIRM,
    );
  }, 90_000);
  afterAll(() => desk?.close());

  it("runs from the Confirm button's handler down into the gateway library", () => {
    const ends = [steps[0] && at(steps[0].stop), steps.at(-1)?.stop.folder];
    expect(ends, `the path:\n${traceText(steps)}`).toEqual([HANDLER, 'src/gateway']);
  });

  it("hands the gate's answer back to the handler, which gives it to Placement.confirm", () => {
    expect(handBack, `no hand-back in the path:\n${traceText(steps)}`).toBeDefined();
  });

  it("enters no folder it has left, except where the gate's answer is handed back", () => {
    const bounces = reentries(steps, handBack);
    const marks = new Map<Step, string>(bounces.map((s) => [s, 'enters a folder it had left']));
    if (handBack) marks.set(handBack, "the gate's answer handed back (allowed)");
    expect(
      bounces.map((s) => at(s.stop)),
      `the path:\n${traceText(steps, marks)}`,
    ).toEqual([]);
  });
});
