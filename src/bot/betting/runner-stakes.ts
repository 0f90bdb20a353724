// The runner cap's arithmetic (decision 2011): what one racing bet puts at risk on each runner of its race.
import type { SlipPayload } from '../model/slip-rules.js';

const loose = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '');

/** A runner's stake: its name as the bet gives it, and cents. */
export interface RunnerStake {
  runner: string;
  cents: number;
}

/**
 * The stake a racing bet puts on each runner, by the runner's loose name: a single's on its runner; a multi's whole
 * stake on every runner of its legs (it is lost unless each of them runs as the leg says); a stack's each multi's
 * on its legs' runners. Other bets put none.
 */
export function runnerStakes(p: SlipPayload, stakeCents: number): Map<string, RunnerStake> {
  const out = new Map<string, RunnerStake>();
  const add = (runner: string, cents: number) => {
    const key = loose(runner);
    out.set(key, { runner: out.get(key)?.runner ?? runner, cents: (out.get(key)?.cents ?? 0) + cents });
  };
  if (p.kind === 'racing' && p.racing) add(p.racing.runner, stakeCents);
  if (p.kind === 'multi' && p.multi) for (const l of p.multi.legs) add(l.runner, stakeCents);
  if (p.kind === 'stack') for (const m of p.stack ?? []) for (const l of m.multi.legs) add(l.runner, m.stakeCents);
  return out;
}

/** Every runner's open stake summed over bets (each given with the stake it holds). */
export function runnerTotals(bets: ReadonlyArray<{ payload: SlipPayload; stakeCents: number }>): Map<string, number> {
  const totals = new Map<string, number>();
  for (const b of bets) {
    for (const [key, s] of runnerStakes(b.payload, b.stakeCents)) totals.set(key, (totals.get(key) ?? 0) + s.cents);
  }
  return totals;
}

/** The first runner the bet would take past the cap, with what already rides on it; undefined when all fit. */
export function runnerOverCap(
  adding: Map<string, RunnerStake>,
  open: Map<string, number>,
  capCents: number,
): { runner: string; usedCents: number } | undefined {
  for (const [key, s] of adding) {
    const used = open.get(key) ?? 0;
    if (used + s.cents > capCents) return { runner: s.runner, usedCents: used };
  }
  return undefined;
}
