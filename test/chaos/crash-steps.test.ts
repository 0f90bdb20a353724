import { expect, it } from 'vitest';
import { crashSteps } from './crash-steps.js';

it('survives kill -9 at every step of a bet: nothing placed twice, lost, unknown to the desk or announced twice', async () => {
  const result = await crashSteps();
  expect(result.notes.join('\n')).toMatch(/duplicate bets 0, gateway bets unknown to the desk 0, lost results 0/);
  expect(result.survived, result.notes.join('\n')).toBe(true);
  expect(result.crashes).toBe(0);
}, 240_000);
