// The clock the page reads times against: the sandbox clock when the playground runs the embedded sandbox (the
// bot runs on it too, decision 0601), else the browser's. Fed by the Sandbox panel's readings and the live
// stream's `clock` events, so a move made in any tab shows in every tab at once.

let reading; // { sandboxMs, realMs, speed }: the sandbox time at a real time, and how fast it runs
const listeners = new Set();

/** Takes a reading `{ now: ISO time, speed? }` (speed kept from the last reading when absent). */
export function setClock(data) {
  const speed = typeof data.speed === 'number' ? data.speed : (reading?.speed ?? 1);
  reading = { sandboxMs: Date.parse(data.now), realMs: Date.now(), speed };
  for (const fn of listeners) fn();
}

/** The time now on the page's clock, in ms. */
export function clockNow() {
  return reading ? reading.sandboxMs + (Date.now() - reading.realMs) * reading.speed : Date.now();
}

/** Calls `fn` whenever a new reading arrives. */
export function onClockChange(fn) {
  listeners.add(fn);
}
