import { CommandInputError, type InteractionHandle, type LocalDiscord } from '../../src/local-discord/index.js';
import { textOf } from '../support/messages.js';
import { type CommandCase, makeCommandCase } from './command-cases.js';
import { createRng } from './rng.js';

export interface CommandFuzzOptions {
  ld: LocalDiscord;
  count: number;
  seed?: number;
  concurrency?: number;
  realStrings?: string[];
  /** How long to wait for the final answer of one interaction. */
  replyTimeoutMs?: number;
  /** After the run, how much longer to watch the unanswered ones, to say whether they were late or lost. */
  lateWaitMs?: number;
}

export interface CommandFuzzReport {
  sent: number;
  acknowledged: number;
  slowestAckMs: number;
  /** Interactions with a final, readable answer. */
  answered: number;
  /** Not acknowledged in 3 s, no answer, or an answer that is not a clear sentence. */
  failures: Array<{ case: CommandCase; problem: string }>;
  byCommand: Record<string, number>;
}

const LOADING_FLAG = 1 << 7;
/** Signs of an answer that is not written for a user: leaked internals or a catch-all. */
const UNCLEAR = /\[object Object\]|\bundefined\b|\bNaN\b|\n\s+at .+\(|TypeError|ReferenceError|ZodError/;

/** The answer minus the user's own input quoted back ("NaN" is not a date is a clear answer). */
function withoutEcho(text: string, c: CommandCase): string {
  let out = text;
  for (const v of Object.values(c.options)) if (typeof v === 'string' && v.trim()) out = out.split(v.trim()).join('');
  return out;
}

async function finalAnswer(handle: InteractionHandle, timeoutMs: number): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const done = handle
      .responses()
      .filter((m) => ((m.flags ?? 0) & LOADING_FLAG) === 0)
      .map((m) => textOf(m))
      .find((t) => t.trim().length > 0);
    if (done !== undefined) return done;
    if (Date.now() > deadline) return undefined;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Runs `count` random, well-typed option sets of the registered commands through the local Discord as real
 * users and checks each is acknowledged within 3 s and ends in a clear reply.
 */
export async function fuzzCommands(opts: CommandFuzzOptions): Promise<CommandFuzzReport> {
  const { ld } = opts;
  const rng = createRng(opts.seed ?? 11);
  const users = Object.values(ld.users);
  const ctx = {
    rng,
    userIds: users.map((u) => u.id),
    channelIds: Object.values(ld.channelIds),
    roleIds: Object.values(ld.roleIds),
    realStrings: opts.realStrings ?? [],
  };
  const commands = ld.commands();
  if (commands.length === 0) throw new Error('no slash commands are registered: start the bot first');
  const report: CommandFuzzReport = {
    sent: 0,
    acknowledged: 0,
    slowestAckMs: 0,
    answered: 0,
    failures: [],
    byCommand: {},
  };
  let remaining = opts.count;
  const silent: Array<{ failure: { case: CommandCase; problem: string }; handle: InteractionHandle; sentAt: number }> =
    [];
  const worker = async () => {
    while (remaining > 0) {
      remaining -= 1;
      let c: CommandCase | undefined;
      let handle: InteractionHandle | undefined;
      // A case Discord itself would refuse (the double checks the definition) is drawn again.
      for (let tries = 0; tries < 20 && !handle; tries++) {
        c = makeCommandCase(ctx, commands);
        if (!c) continue;
        try {
          handle = await ld.sendCommand({
            user: rng.pick(users),
            channelId: rng.pick(ctx.channelIds),
            name: c.name,
            options: c.options,
            ...(c.subcommand ? { subcommand: c.subcommand } : {}),
            ...(c.subcommandGroup ? { subcommandGroup: c.subcommandGroup } : {}),
          });
        } catch (err) {
          if (!(err instanceof CommandInputError)) throw err;
        }
      }
      if (!handle || !c) continue;
      report.sent += 1;
      report.byCommand[c.name] = (report.byCommand[c.name] ?? 0) + 1;
      const sentAt = Date.now();
      let ackType: number;
      try {
        const { ms, type } = await handle.acknowledged;
        ackType = type;
        report.acknowledged += 1;
        report.slowestAckMs = Math.max(report.slowestAckMs, ms);
      } catch (err) {
        report.failures.push({ case: c, problem: (err as Error).message });
        continue;
      }
      // A modal (callback 9) is the answer itself: the user now sees a form.
      if (ackType === 9) {
        report.answered += 1;
        continue;
      }
      const text = await finalAnswer(handle, opts.replyTimeoutMs ?? 20_000);
      if (text === undefined) {
        const failure = { case: c, problem: 'acknowledged but never answered' };
        report.failures.push(failure);
        silent.push({ failure, handle, sentAt });
      } else if (UNCLEAR.test(withoutEcho(text, c)))
        report.failures.push({ case: c, problem: `unclear answer: ${text.slice(0, 300)}` });
      else report.answered += 1;
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 4 }, worker));
  // Still failures either way (a user left waiting that long is not answered), but late is not lost.
  await Promise.all(
    silent.map(async ({ failure, handle, sentAt }) => {
      const text = await finalAnswer(handle, opts.lateWaitMs ?? 0);
      const waited = ((Date.now() - sentAt) / 1000).toFixed(0);
      failure.problem =
        text === undefined
          ? `acknowledged but never answered (watched ${waited} s)`
          : `answered only after more than ${((opts.replyTimeoutMs ?? 20_000) / 1000).toFixed(0)} s: ${text.slice(0, 160)}`;
    }),
  );
  return report;
}
