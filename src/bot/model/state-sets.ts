/**
 * How every state table of the bot is asked (issue 44): a named set as SQL, a single state as an SQL value, and a
 * record's membership of a set in code. States are fixed identifiers from the tables, never user input, so they
 * are written into SQL as quoted literals here, the one place that does it.
 */

/** A named set as SQL: `state IN ${sqlStates(JOB_STATES.pending)}`. */
export const sqlStates = (states: readonly string[]): string => `(${states.map((s) => `'${s}'`).join(', ')})`;

/** A single state as an SQL value, for a move's target: `SET state = ${sqlState(WATCH_MOVES.remove.to)}`. */
export const sqlState = (state: string): string => `'${state}'`;

/** A record's state is one of a named set: `inStates(BET_STATES.placed)(r)`. */
export const inStates =
  (states: readonly string[]) =>
  (r: { state: string }): boolean =>
    states.includes(r.state);
