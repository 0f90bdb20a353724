// Observes, in-process, when the sandbox finishes a job's bookmaker work: wraps the `work` of each job
// submitted from now on. It changes nothing the sandbox does or answers; it only notes the time and result.
import type { RunningSandbox } from '../../src/sandbox/index.js';

export interface Completion {
  at: number;
  result: unknown;
}

export function watchCompletions(sandbox: RunningSandbox): Map<string, Completion> {
  const done = new Map<string, Completion>();
  const jobs = sandbox.sb.jobs;
  const submit = jobs.submit.bind(jobs);
  jobs.submit = (opts) => {
    let id = '';
    const envelope = submit({
      ...opts,
      work: async () => {
        const result = await opts.work();
        done.set(id, { at: performance.now(), result });
        return result;
      },
    });
    id = envelope.correlation_id;
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
