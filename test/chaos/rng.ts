/** A small seeded generator (mulberry32) so a failing chaos run can be repeated with the same seed. */
export interface Rng {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  bytes(n: number): Buffer;
}

export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T,
    chance: (p: number) => next() < p,
    bytes: (n: number) => {
      const out = Buffer.alloc(n);
      for (let i = 0; i < n; i++) out[i] = int(0, 255);
      return out;
    },
  };
}
