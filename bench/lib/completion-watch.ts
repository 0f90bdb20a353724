// Observes, in-process, when the sandbox finishes a bet placement's bookmaker work: wraps the `work` of each
// place_bet job submitted from now on (other jobs, such as a slip's price checks, pass untouched). It notes the time
// and result, and changes nothing the sandbox does or answers, except a delay `pace` gives a placement.
import type { RunningSandbox } from '../../src/sandbox/index.js';

export interface Completion {
  at: number;
  /** When the sandbox started the job's bookmaker work (its simulated delay over). */
  startedAt: number;
  result: unknown;
}

/**
 * Jobs finished, by correlation id; `submitted` holds every job's id as it is accepted (finished or not), and
 * `submittedAt` when each was accepted, in order (performance.now()). `pace`, when set, gives the jobs accepted from
 * then on their simulated delays in turn (sandbox ms, as the sandbox draws them): another run's jobs replayed.
 */
export type Completions = Map<string, Completion> & {
  submitted: Set<string>;
  submittedAt: number[];
  pace?: number[];
};

export function watchCompletions(sandbox: RunningSandbox): Completions {
  const done: Completions = Object.assign(new Map<string, Completion>(), {
    submitted: new Set<string>(),
    submittedAt: [] as number[],
  });
  const jobs = sandbox.sb.jobs;
  const submit = jobs.submit.bind(jobs);
  jobs.submit = (opts) => {
    // Bet placements only: a slip's price checks are jobs too, and would shift the floor's pace off the bets'.
    if (!opts.path?.endsWith('/place_bet')) return submit(opts);
    let id = '';
    const delayMs = done.pace?.shift();
    const envelope = submit({
      ...opts,
      ...(delayMs === undefined ? {} : { delayMs }),
      work: async () => {
        const startedAt = performance.now();
        const result = await opts.work();
        done.set(id, { at: performance.now(), startedAt, result });
        return result;
      },
    });
    id = envelope.correlation_id;
    done.submitted.add(id);
    done.submittedAt.push(performance.now());
    return envelope;
  };
  return done;
}

/** The bet id of a placed bet's result (flat, or under bet_result), if it was placed. */
export function betIdOf(result: unknown): string | undefined {
  if (!result || typeof result !== 'object') return undefined;
  const r = result as { bet_id?: unknown; bet_result?: { bet_id?: unknown } };
  const id = r.bet_result?.bet_id ?? r.bet_id;
  return typeof id === 'string' && id.length > 0 ? id : undefined;
}
