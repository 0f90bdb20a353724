// `npm run chaos`: the bot against the sandbox's faults and the local Discord; prints the summary line last.
import { autocompleteFlood, hostileGatewayBodies, secretsInClientErrors } from './attacks-client.js';
import { crossGuildClicks, stakesWithSeparators } from './attacks-desk.js';
import { hostileControlInputs, subCentMoney } from './attacks-sandbox.js';
import { crashSteps } from './crash-steps.js';
import { commandFuzz, duplicateDeliveries, faultStorm, killNine, webhookFuzz } from './scenarios.js';
import { failedLine, type ScenarioResult, summarise, summaryLine } from './tally.js';

export interface ChaosSizes {
  webhooks: number;
  commands: number;
  stormBets: number;
  stormReads: number;
  /** Hostile requests at the sandbox's control routes. */
  controlAttacks: number;
  /** Random small bets and withdrawals, a third of them sub-cent. */
  moneyOps: number;
  /** kill -9 at every step of a bet (its own test runs it in `npm test`, so the short run leaves it out). */
  crashSteps: boolean;
  /** Calls per kind of hostile answer (oversize, declared oversize, broken, stalled). */
  hostileCalls: number;
  /** Autocomplete asks one member sends, each about a different card. */
  autocompleteAsks: number;
}

export const FULL: ChaosSizes = {
  webhooks: 10_000,
  commands: 1_000,
  stormBets: 12,
  stormReads: 150,
  crashSteps: true,
  hostileCalls: 25,
  autocompleteAsks: 900,
  controlAttacks: 2_000,
  moneyOps: 300,
};
export const SHORT: ChaosSizes = {
  webhooks: 500,
  commands: 100,
  stormBets: 4,
  stormReads: 30,
  crashSteps: false,
  hostileCalls: 4,
  autocompleteAsks: 150,
  controlAttacks: 200,
  moneyOps: 40,
};

/**
 * Runs every scenario in turn. A scenario that throws counts as not survived and is marked `threw`; only a
 * bot process that died or an unhandled error in this process counts as a crash.
 */
export async function runChaos(sizes: ChaosSizes, print: (line: string) => void): Promise<ScenarioResult[]> {
  let processFaults = 0;
  const onFault = (err: unknown) => {
    processFaults += 1;
    print(`  process-level error: ${String((err as Error)?.stack ?? err).slice(0, 500)}`);
  };
  process.on('uncaughtException', onFault);
  process.on('unhandledRejection', onFault);
  const scenarios: Array<[string, () => Promise<ScenarioResult>]> = [
    ['webhook fuzz', () => webhookFuzz(sizes.webhooks)],
    ['duplicate deliveries', () => duplicateDeliveries()],
    ['kill -9', () => killNine()],
    ['fault storm', () => faultStorm(sizes.stormBets, sizes.stormReads)],
    ['command fuzz', () => commandFuzz(sizes.commands)],
    ['hostile gateway bodies', () => hostileGatewayBodies(sizes.hostileCalls)],
    ['secrets in client errors', () => secretsInClientErrors()],
    ['autocomplete flood', () => autocompleteFlood(sizes.autocompleteAsks)],
    ['hostile control inputs', () => hostileControlInputs(sizes.controlAttacks)],
    ['sub-cent money', () => subCentMoney(sizes.moneyOps)],
    ['cross-guild and cross-message clicks', () => crossGuildClicks()],
    ['stakes with separators', () => stakesWithSeparators()],
    ...(sizes.crashSteps
      ? [['kill -9 at every step', () => crashSteps()] as [string, () => Promise<ScenarioResult>]]
      : []),
  ];
  const results: ScenarioResult[] = [];
  try {
    for (const [name, run] of scenarios) {
      const started = Date.now();
      const before = processFaults;
      let result: ScenarioResult;
      try {
        result = await run();
      } catch (err) {
        result = {
          name,
          survived: false,
          duplicateBets: 0,
          lostResults: 0,
          crashes: 0,
          threw: true,
          notes: [`threw: ${String((err as Error).message).slice(0, 800)}`],
        };
      }
      if (processFaults > before) {
        result.crashes += processFaults - before;
        result.survived = false;
      }
      results.push(result);
      print(`${result.survived ? 'ok  ' : 'FAIL'} ${result.name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      for (const note of result.notes) print(`     ${note}`);
    }
  } finally {
    process.off('uncaughtException', onFault);
    process.off('unhandledRejection', onFault);
  }
  return results;
}

async function main() {
  const short = process.argv.includes('--short');
  const results = await runChaos(short ? SHORT : FULL, (line) => console.log(line));
  const summary = summarise(results);
  console.log(failedLine(summary));
  console.log(summaryLine(summary));
  process.exit(summary.survived === summary.total ? 0 : 1);
}

if (process.argv[1]?.endsWith('main.ts')) await main();
