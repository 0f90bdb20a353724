// A settlement pass that begins after a test's settle. The watcher's tick shares a pass already running, and that
// pass may have read the book's history before the settle; a second tick then starts a pass of its own (as the
// playground's "Settle started events" does, src/bot/main.ts).

/** Runs the watcher until a pass that began after this call has ended; returns that pass's count of notices. */
export async function settlementPassAfter(bot: { settlement: { tick(): Promise<number> } }): Promise<number> {
  await bot.settlement.tick();
  return bot.settlement.tick();
}
