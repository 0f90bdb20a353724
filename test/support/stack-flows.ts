// Racing multis and stacks through the local Discord: the open races to bet, /multi, and "Add another multi on this
// race" with its form (decision 2010).
import type { LocalMessage } from '../../src/local-discord/index.js';
import { localDay, type Race, raceStartMs, TRACKS } from '../../src/sandbox/world/racing.js';
import { newTrail, press, waitForModal } from './flows.js';
import type { Desk } from './harness.js';
import { textOf } from './messages.js';
import { until } from './wait.js';

/** The first `count` thoroughbred races of the sandbox's world (its today or tomorrow, on the desk's clock) off in more than half an hour. */
export function openRaces(desk: Desk, count: number): Race[] {
  const world = desk.sandbox.sb.world;
  const now = desk.now();
  const open: Race[] = [];
  for (const def of TRACKS.filter((t) => t.race_type === 'R')) {
    for (const dayOffset of [0, 1]) {
      const date = localDay(def, now + dayOffset * 86_400_000);
      for (let n = 1; n <= 8; n++) {
        const r = raceStartMs(def, n, date) > now + 30 * 60_000 ? world.race(def.track, n, 'R', date) : undefined;
        if (r && r.runners.length >= 6) open.push(r);
      }
    }
  }
  return open.sort((a, b) => a.startMs - b.startMs).slice(0, count);
}

/** The sandbox's multis (bet_type srm) on a race. */
export async function sandboxMultis(desk: Desk, r: Race) {
  return (await desk.control.state()).bets.filter(
    (b) => b.bet.bet_type === 'srm' && JSON.stringify(b.bet).includes(`"${r.track} R${r.race_num}"`),
  );
}

/** A race command (`/multi`, `/bet-racing`) as the bettor on `on` at `bookie`: the public slip it posts. */
export async function raceCommand(
  desk: Desk,
  name: string,
  on: Race,
  options: Record<string, string | number>,
  bookie = 'bookie_a',
): Promise<LocalMessage> {
  const handle = await desk.ld.sendCommand({
    user: desk.ld.users.bettor,
    channelId: desk.ld.channelIds.bets,
    name,
    options: { track: `${on.track} (R)`, race: on.race_num, date: on.date, bookie, ...options },
  });
  return until('the public slip', () => handle.responses().find((m) => m.visibleTo === null), { timeoutMs: 40_000 });
}

/** /multi as the bettor on `on` (legs as "Runner|top3"): the public slip. */
export function multiSlip(desk: Desk, on: Race, legs: string[], stake: number, bookie = 'bookie_a') {
  const named = Object.fromEntries(legs.map((l, k) => [`leg${k + 1}`, l]));
  return raceCommand(desk, 'multi', on, { stake, ...named }, bookie);
}

/** "Add another multi on this race" on `slip`, the form filled: the stack slip posted below (or the refusal). */
export async function addMulti(
  desk: Desk,
  slip: LocalMessage,
  form: { legs: string; stake: string; minOdds?: string; bonus?: string },
): Promise<LocalMessage> {
  const modal = waitForModal(desk, desk.ld.users.bettor.id);
  await press(desk, newTrail(), desk.ld.users.bettor, slip, /^Add another multi on this race$/);
  const opened = await modal;
  const handle = await desk.ld.submitModal({
    user: desk.ld.users.bettor,
    channelId: desk.ld.channelIds.bets,
    customId: opened.customId,
    fields: { legs: form.legs, stake: form.stake, min_odds: form.minOdds ?? '', bonus: form.bonus ?? '' },
  });
  return until(
    'the stack slip, or the refusal',
    () =>
      handle.responses().find((m) => m.visibleTo === null) ??
      handle.responses().find((m) => textOf(m) !== '' && !/posted below/.test(textOf(m))),
    { timeoutMs: 40_000, seen: () => handle.responses().map(textOf).join(' | ') },
  );
}
