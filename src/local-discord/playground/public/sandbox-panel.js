// The sidebar's "Sandbox" panel: shows the sandbox clock and moves it on, or settles started events,
// so results and settlement notices arrive without waiting real hours.
import { clockNow, onClockChange, setClock } from './clock.js';

const HOUR_MS = 3_600_000;
const REFRESH_MS = 15_000; // re-read the clock now and then; between reads it ticks locally

const formatter = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** Said instead of the browser's "Failed to fetch" when npm start is not answering. */
const OFFLINE = 'npm start is not answering (stopped or restarting); the panel works again once it is back.';

async function call(path, body) {
  let res;
  try {
    res = await fetch(
      path,
      body === undefined
        ? {}
        : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    );
  } catch {
    throw new Error(OFFLINE);
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.error ?? `${res.status} ${res.statusText}`);
  return data;
}

/**
 * The money named as the fund names an account (book/user), and the treasurer's next step: to record it when the
 * account is the fund's, to add the account first when it is not (both, when the page was not told which).
 */
const depositSaid = (bookie, username, inFund) => {
  const arrived = `$100.00 arrived in ${bookie}/${username}`;
  const contribute = `/fund contribute member:@bettor amount:100 session:${bookie}, picking ${bookie}/${username} from the list`;
  const add = `/fund accounts action:add session:${bookie}`;
  if (inFund === true)
    return `${arrived}, one of the fund's accounts. A treasurer records whose money it is: ${contribute}.`;
  if (inFund === false) {
    return `${arrived}, not one of the fund's accounts yet. A treasurer adds it first (${add}), then records whose money it is: ${contribute}.`;
  }
  return `${arrived}. A treasurer records whose money it is: ${contribute}. Not one of the fund's accounts yet? Add it first: ${add}.`;
};

/** The withdrawal switch's label for each mode. */
const WITHDRAWALS_LABEL = { completed: 'at once', pending: 'held pending', failed: 'refused' };

/** What Complete pending withdrawals did. */
const completedSaid = (n) =>
  n === 0
    ? 'No withdrawal was pending.'
    : `${n} pending withdrawal${n === 1 ? '' : 's'} completed at the bookmaker: the desk follows within a fund beat.`;

/**
 * What a settle did. Bets on events that finished while the clock moved were settled by that move, so a settle after
 * "Advance 1 day" often finds none left: said so, never a bare "0 bets settled" beside notices that did come.
 */
const settledSaid = (n) =>
  n === 0
    ? 'Started events finished; no bet was left to settle (bets on events that finished as the clock moved settled then: their notices are in the results channel).'
    : `Started events finished; ${n} bet${n === 1 ? '' : 's'} settled: the notices follow in the results channel.`;

/**
 * Shows the panel when the playground runs the embedded sandbox; does nothing otherwise. Returns `reset()`, for a
 * new run of npm start: the old run's status line goes.
 */
export function setupSandboxPanel(enabled, sandboxUrl) {
  const panel = document.getElementById('sandbox-panel');
  if (!enabled || !panel) return { reset(_nextUrl) {} };
  // A new run of npm start starts a new sandbox, on another port.
  const showAddress = (url) => {
    document.getElementById('sandbox-url').textContent = url ?? '';
    document.getElementById('sandbox-address').hidden = !url;
  };
  showAddress(sandboxUrl);
  const clockEl = document.getElementById('sandbox-clock');
  const status = document.getElementById('sandbox-status');
  const buttons = [...panel.querySelectorAll('button')];
  panel.hidden = false;

  let read = false;
  const show = () => {
    if (!read) return;
    const now = clockNow();
    clockEl.dateTime = new Date(now).toISOString();
    clockEl.textContent = `${formatter.format(now)} UTC`;
  };
  // Readings come from this panel and from the live stream (a move made in another tab).
  onClockChange(() => {
    read = true;
    panel.dataset.now = new Date(clockNow()).toISOString();
    show();
  });
  const modeButton = document.getElementById('withdrawal-mode');
  // Readings carry the clock; the withdrawal switch's answers and the panel's first reading carry its mode.
  const take = (data) => {
    if (data.withdrawals) modeButton.textContent = `Withdrawals: ${WITHDRAWALS_LABEL[data.withdrawals]}`;
    if (data.now) setClock(data);
  };
  // A reading that fails while npm start is away says so; the next one that works clears it.
  let away = false;
  const refresh = () =>
    call('/api/sandbox')
      .then((data) => {
        take(data);
        if (away) status.textContent = '';
        away = false;
      })
      .catch((err) => {
        away = true;
        status.textContent = err.message;
      });

  const act = async (label, path, body) => {
    for (const b of buttons) b.disabled = true;
    status.textContent = `${label}…`;
    try {
      const data = await call(path, body);
      take(data);
      status.textContent =
        data.said !== undefined
          ? data.said
          : data.completed !== undefined
            ? completedSaid(data.completed)
            : data.moved !== undefined
              ? `${label}: ${data.moved}; the clock is past that scrape, so the watch's alert follows.`
              : data.deposit_id !== undefined
                ? depositSaid(data.bookie, data.username, data.inFund)
                : data.settled === undefined
                  ? `${label}: done. Settlement notices follow in the results channel (#results unless an admin changed it).`
                  : settledSaid(data.settled);
    } catch (err) {
      status.textContent = `${label} failed: ${err.message}`;
    } finally {
      for (const b of buttons) b.disabled = false;
    }
  };
  // Each button: its id, what the status line calls it, the page's route and the body it sends.
  const actions = [
    ['advance-hour', 'Advance 1 hour', '/api/sandbox/advance', { ms: HOUR_MS }],
    ['advance-day', 'Advance 1 day', '/api/sandbox/advance', { ms: 24 * HOUR_MS }],
    ['settle-started', 'Settle started events', '/api/sandbox/settle', {}],
    ['run-race', 'Run next race with bets', '/api/sandbox/race', {}],
    ['deposit-100', 'Deposit $100', '/api/sandbox/deposit', {}],
    ['move-watched-price', 'Move watched price', '/api/sandbox/price', {}],
    ['steam-watched', 'Steam on watched', '/api/sandbox/steam', {}],
    ['withdrawal-mode', 'Withdrawals', '/api/sandbox/withdrawals/mode', {}],
    ['complete-withdrawals', 'Complete pending withdrawals', '/api/sandbox/withdrawals/complete', {}],
  ];
  for (const [id, label, path, body] of actions) {
    document.getElementById(id).addEventListener('click', () => act(label, path, body));
  }

  refresh();
  setInterval(show, 1_000);
  setInterval(refresh, REFRESH_MS);
  return {
    reset(nextUrl) {
      showAddress(nextUrl);
      away = false;
      status.textContent = '';
      refresh();
    },
  };
}
