// Loads the generated world (src/sandbox/world) by a runtime specifier, so the platform starts even while the
// world module is absent or incomplete; then falls back to the placeholder.
import type { SandboxClock } from './clock.js';
import { createPlaceholderWorld } from './placeholder-world.js';
import type { World } from './sandbox.js';

type CreateWorld = (opts: { seed: number; clock: SandboxClock }) => World;

export async function loadWorld(seed: number, clock: SandboxClock, log: (m: string) => void): Promise<World> {
  const specifier = '../world/index.js';
  try {
    const mod = (await import(specifier)) as { createWorld?: CreateWorld };
    if (typeof mod.createWorld === 'function') return mod.createWorld({ seed, clock });
    log('world module has no createWorld export yet: using the placeholder world');
  } catch (err) {
    log(`world module not loaded (${(err as Error).message.split('\n')[0]}): using the placeholder world`);
  }
  return createPlaceholderWorld(() => clock.today());
}
