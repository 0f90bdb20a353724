// The playground page: a channel view over the local Discord, driven through the playground's JSON API.
import '@skyra/discord-components-core';
import { clockNow, onClockChange, setClock } from './clock.js';
import { applyChoice, buildCommand, commandsFor, partialOptions, suggest } from './command-line.js';
import { openModal } from './modal.js';
import { renderMessage } from './render.js';
import { setupSandboxPanel } from './sandbox-panel.js';
import { refreshPostedTimes, refreshTimestamps } from './timestamps.js';

const $ = (id) => document.getElementById(id);
const ui = {
  personas: $('persona'),
  channels: $('channels'),
  channelName: $('channel-name'),
  messages: $('messages'),
  scroller: $('scroller'),
  input: $('command-input'),
  composer: $('composer'),
  suggestions: $('suggestions'),
  hint: $('hint'),
  notice: $('notice'),
  live: $('live-status'),
  modal: $('modal'),
};

const app = {
  state: undefined,
  as: new URLSearchParams(location.search).get('as') ?? localStorage.getItem('playground.as') ?? 'bettor',
  channelId: undefined,
  messages: new Map(), // channelId -> Map(messageId -> message)
  unread: new Set(),
  picked: {}, // option name -> { name, value } picked from a list
  items: [],
  active: -1,
  suggestSeq: 0,
  origins: new Map(), // interaction id -> { channelId, messageId }
  events: undefined,
  loading: undefined, // { channelId, events } while a channel's history is being fetched
};

/** Said when the page cannot reach npm start at all (stopped, or restarting), instead of "Failed to fetch". */
const OFFLINE =
  'The playground is not answering: npm start is stopped or restarting. Start it again; this page reconnects by itself.';

async function api(path, body) {
  let res;
  try {
    res = await fetch(
      path,
      body === undefined
        ? {}
        : {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ as: app.as, channelId: app.channelId, ...body }),
          },
    );
  } catch {
    throw new Error(OFFLINE);
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.error ?? `${res.status} ${res.statusText}`);
  return data;
}

/** The line above the message box: an error (red), or 'info' for news such as a new run. */
function showNotice(text, kind = 'error') {
  ui.notice.textContent = text;
  ui.notice.dataset.kind = kind;
  ui.notice.hidden = !text;
}

/** Said once the page reconnects to a restarted npm start: what happened, and that the old run is gone. */
const NEW_RUN =
  "npm start was restarted, so a new run began: the offline playground keeps nothing between runs (a fresh local Discord and a fresh store), and this page cleared the old run's messages.";

// ---- names and avatars ----

function names() {
  const map = {};
  for (const p of app.state.personas) map[p.id] = p.username;
  for (const c of app.state.channels) map[c.id] = c.name;
  for (const r of app.state.roles) map[r.id] = r.name.replace(/^@/, '');
  return map;
}

function avatarFor(user) {
  if (user?.bot) return '/avatars/bot.svg';
  const p = app.state.personas.find((x) => x.id === user?.id);
  return p ? `/avatars/${p.key}.svg` : '/avatars/user.svg';
}

// ---- messages ----

const renderCtx = {
  get names() {
    return names();
  },
  get clock() {
    return { now: clockNow() };
  },
  avatarFor,
  onButton: (message, component) =>
    interact('/api/click', message, { messageId: message.id, customId: component.custom_id }),
  onSelect: (message, component, values) =>
    interact('/api/select', message, { messageId: message.id, customId: component.custom_id, values }),
};

async function interact(path, message, body) {
  showNotice('');
  try {
    const { id } = await api(path, { ...body, channelId: message.channel_id ?? app.channelId });
    app.origins.set(id, { channelId: message.channel_id ?? app.channelId, messageId: message.id });
  } catch (err) {
    showNotice(err.message);
  }
}

function channelStore(channelId) {
  if (!app.messages.has(channelId)) app.messages.set(channelId, new Map());
  return app.messages.get(channelId);
}

function nearBottom() {
  const s = ui.scroller;
  return s.scrollHeight - s.scrollTop - s.clientHeight < 120;
}

// Whether the view follows the newest message: true until the person scrolls up, as in Discord.
let following = true;
function scrollDown() {
  following = true;
  ui.scroller.scrollTop = ui.scroller.scrollHeight;
}
// Only a scroll up (the page itself only scrolls down) stops following; reaching the bottom again resumes it.
// A message replaced or added moves the scroll position too: a reply re-drawn shorter for a moment clamps it up,
// then grows within the same frame, and the scroll event then reads the view as far from the bottom. A scroll up
// that comes just after the messages changed is theirs, not the person's.
let lastTop = 0;
let changedAt = Number.NEGATIVE_INFINITY;
const CHANGE_SETTLE_MS = 250;
ui.scroller.addEventListener('scroll', () => {
  const top = ui.scroller.scrollTop;
  if (top < lastTop - 2 && performance.now() - changedAt > CHANGE_SETTLE_MS) following = nearBottom();
  else if (nearBottom()) following = true;
  lastTop = top;
});
// The message components draw after they are added (and embeds grow as they render): keep the newest in view.
new ResizeObserver(() => {
  if (following) ui.scroller.scrollTop = ui.scroller.scrollHeight;
}).observe(ui.messages);

function renderChannel() {
  changedAt = performance.now();
  const store = channelStore(app.channelId);
  ui.messages.replaceChildren(...[...store.values()].map((m) => renderMessage(m, renderCtx)));
  scrollDown();
}

function applyMessageEvent(event) {
  const { kind, channelId, message } = event;
  // While a channel's history loads, its events wait and are replayed over the loaded history.
  if (app.loading?.channelId === channelId) {
    app.loading.events.push(event);
    return;
  }
  const store = channelStore(channelId);
  if (kind === 'delete') store.delete(message.id);
  else store.set(message.id, message);
  if (channelId !== app.channelId) {
    if (kind === 'create') app.unread.add(channelId);
    renderChannelList();
    return;
  }
  const stick = nearBottom();
  changedAt = performance.now();
  const existing = document.getElementById(`m-${message.id}`);
  if (kind === 'delete') existing?.remove();
  else if (existing) existing.replaceWith(renderMessage(message, renderCtx));
  else ui.messages.append(renderMessage(message, renderCtx));
  if (stick || kind === 'create') scrollDown();
}

async function loadChannel(channelId) {
  app.channelId = channelId;
  app.unread.delete(channelId);
  const channel = app.state.channels.find((c) => c.id === channelId);
  ui.channelName.textContent = channel?.name ?? channelId;
  ui.input.setAttribute('aria-label', `Message #${channel?.name ?? ''}`);
  ui.input.placeholder = `Message #${channel?.name ?? ''} — type / for commands`;
  renderChannelList();
  const loading = { channelId, events: [] };
  app.loading = loading;
  try {
    const { messages } = await api(`/api/messages?channel=${encodeURIComponent(channelId)}&as=${app.as}`);
    app.messages.set(channelId, new Map(messages.map((m) => [m.id, m])));
  } finally {
    if (app.loading === loading) app.loading = undefined;
  }
  const store = channelStore(channelId);
  for (const e of loading.events) {
    if (e.kind === 'delete') store.delete(e.message.id);
    else store.set(e.message.id, e.message);
  }
  if (app.channelId === channelId) renderChannel();
}

function renderChannelList() {
  ui.channels.replaceChildren(
    ...app.state.channels.map((c) => {
      const li = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'channel-link';
      button.dataset.channel = c.name;
      if (c.id === app.channelId) button.setAttribute('aria-current', 'page');
      if (app.unread.has(c.id)) button.classList.add('unread');
      button.textContent = `# ${c.name}`;
      button.addEventListener('click', () => loadChannel(c.id).catch((e) => showNotice(e.message)));
      li.append(button);
      return li;
    }),
  );
}

// ---- live events ----

function connect() {
  app.events?.close();
  ui.live.dataset.state = 'connecting';
  ui.live.textContent = 'connecting…';
  const source = new EventSource(`/api/events?as=${encodeURIComponent(app.as)}`);
  app.events = source;
  source.addEventListener('ready', (e) => {
    ui.live.dataset.state = 'live';
    ui.live.textContent = 'live';
    const { runId } = JSON.parse(e.data);
    if (app.state && runId !== app.state.runId) {
      // npm start was restarted: what the page shows belongs to a run that is gone.
      startOver().catch((err) => showNotice(err.message));
    } else if (app.connectedOnce && app.channelId) {
      // Same run, the stream dropped for a moment: read the channel again for what was missed meanwhile.
      loadChannel(app.channelId).catch((err) => showNotice(err.message));
    }
    app.connectedOnce = true;
    document.body.dataset.ready = 'true';
    document.body.dataset.run = runId;
  });
  source.addEventListener('error', () => {
    ui.live.dataset.state = 'connecting';
    ui.live.textContent = 'reconnecting… (is npm start running?)';
  });
  source.addEventListener('open', () => showNotice(''));
  source.addEventListener('message', (e) => applyMessageEvent(JSON.parse(e.data)));
  source.addEventListener('failed', (e) => showNotice(JSON.parse(e.data).message));
  source.addEventListener('modal', (e) => onModal(JSON.parse(e.data)));
  source.addEventListener('clock', (e) => setClock(JSON.parse(e.data)));
}

/** A new run began: take its state, forget the old run's messages, picks and controls, and say so. */
async function startOver() {
  app.state = await api('/api/state');
  app.messages.clear();
  app.unread.clear();
  app.origins.clear();
  app.picked = {};
  ui.input.value = '';
  setHint('');
  showSuggestions([], -1);
  if (ui.modal.open) ui.modal.close();
  if (app.state.sandbox) await api('/api/sandbox').then(setClock, () => {});
  app.sandboxPanel?.reset(app.state.sandboxUrl);
  await loadChannel(app.channelId ?? app.state.channels[0].id);
  showNotice(NEW_RUN, 'info');
}

async function onModal({ interactionId, channelId, modal }) {
  const fields = await openModal(ui.modal, modal);
  if (!fields) return;
  const origin = app.origins.get(interactionId) ?? { channelId: channelId ?? app.channelId };
  try {
    const { id } = await api('/api/modal', {
      channelId: origin.channelId,
      customId: modal.custom_id,
      fields,
      ...(origin.messageId ? { messageId: origin.messageId } : {}),
    });
    app.origins.set(id, origin);
  } catch (err) {
    showNotice(err.message);
  }
}

// ---- the message box ----

/** The commands the person acting now is offered (an admin-only command is hidden from others, as in Discord). */
function commands() {
  const persona = app.state.personas.find((p) => p.key === app.as);
  return commandsFor(app.state.commands, persona?.permissions);
}

/** Names the pickers list and typed names resolve to: members (display name first, then key), channels, roles. */
function lookups() {
  return {
    users: Object.fromEntries(
      app.state.personas.flatMap((p) => [
        [p.username, p.id],
        [p.key, p.id],
      ]),
    ),
    channels: Object.fromEntries(app.state.channels.map((c) => [c.name, c.id])),
    roles: Object.fromEntries(app.state.roles.map((r) => [r.name.replace(/^@/, ''), r.id])),
  };
}

function showSuggestions(items, active) {
  app.items = items;
  app.active = items.length ? active : -1;
  ui.suggestions.hidden = items.length === 0;
  ui.suggestions.replaceChildren(
    ...items.map((item, i) => {
      const li = document.createElement('div');
      li.setAttribute('role', 'option');
      li.className = 'suggestion';
      if (i === app.active) li.setAttribute('aria-selected', 'true');
      const label = document.createElement('span');
      label.className = 'suggestion-label';
      label.textContent = item.label;
      const detail = document.createElement('span');
      detail.className = 'suggestion-detail';
      detail.textContent = item.detail ?? '';
      li.append(label, detail);
      li.addEventListener('mousedown', (e) => {
        e.preventDefault();
        accept(i);
      });
      return li;
    }),
  );
}

/** One line above the box: an error to fix, or 'info' for a neutral note. */
function setHint(text, kind = 'error') {
  ui.hint.textContent = text;
  ui.hint.dataset.kind = kind;
}

// The bot may answer an autocomplete with nothing while it fetches from the gateway, expecting the next
// keystroke to find its cache warm: ask again a few times before saying nothing matches.
const AUTOCOMPLETE_RETRIES = 3;
const AUTOCOMPLETE_RETRY_MS = 700;

async function updateSuggestions(retry = 0) {
  const text = ui.input.value;
  setHint('');
  const seq = ++app.suggestSeq;
  const local = suggest(text, commands(), lookups(), app.picked);
  const auto = local.find((s) => s.autocomplete);
  if (!auto) {
    // Highlight the first item only while a word is being typed, so Enter still sends a finished line.
    const typing = /\S$/.test(text) || text.endsWith(':');
    showSuggestions(local, typing ? 0 : -1);
    return;
  }
  // Stale items must not be taken by Enter while the bot is asked; Discord shows "Loading options" too.
  showSuggestions([], -1);
  setHint('Loading options…', 'info');
  const partial = partialOptions(text, commands(), app.picked, lookups());
  try {
    const { choices } = await api('/api/autocomplete', {
      name: partial.name,
      ...(partial.subcommand ? { subcommand: partial.subcommand } : {}),
      options: partial.options,
      focused: auto.autocomplete,
    });
    if (seq !== app.suggestSeq) return;
    if (!choices.length && retry < AUTOCOMPLETE_RETRIES) {
      setTimeout(() => {
        if (seq === app.suggestSeq && ui.input.value === text) updateSuggestions(retry + 1);
      }, AUTOCOMPLETE_RETRY_MS);
      return;
    }
    setHint(choices.length ? '' : 'No matching options.', 'info');
    showSuggestions(
      choices.map((c) => ({ label: c.name, detail: auto.autocomplete, choice: { option: auto.autocomplete, ...c } })),
      0,
    );
  } catch (err) {
    if (seq === app.suggestSeq) {
      showSuggestions([], -1);
      setHint(err.message);
    }
  }
}

function accept(index) {
  const item = app.items[index];
  if (!item) return;
  if (item.choice) {
    app.picked[item.choice.option] = { name: item.choice.name, value: item.choice.value };
    ui.input.value = item.text ?? applyChoice(ui.input.value, commands(), item.choice.name);
  } else {
    ui.input.value = item.text;
  }
  ui.input.focus();
  updateSuggestions();
}

async function send() {
  // As in Discord, Enter on an empty box does nothing.
  if (!ui.input.value.trim()) return;
  const built = buildCommand(ui.input.value, commands(), app.picked, lookups());
  if (built.error) {
    setHint(built.error);
    return;
  }
  showNotice('');
  try {
    await api('/api/command', built);
    ui.input.value = '';
    app.picked = {};
    showSuggestions([], -1);
    // What the line said about itself (an error, "No matching options.") is gone with the line.
    setHint('');
  } catch (err) {
    setHint(err.message);
  }
}

ui.input.addEventListener('input', () => updateSuggestions());
ui.input.addEventListener('focus', () => updateSuggestions());
ui.input.addEventListener('blur', () => setTimeout(() => showSuggestions([], -1), 150));
ui.input.addEventListener('keydown', (e) => {
  const open = app.items.length > 0;
  if (e.key === 'ArrowDown' && open) {
    e.preventDefault();
    showSuggestions(app.items, (app.active + 1) % app.items.length);
  } else if (e.key === 'ArrowUp' && open) {
    e.preventDefault();
    showSuggestions(app.items, (app.active - 1 + app.items.length) % app.items.length);
  } else if (e.key === 'Tab' && open) {
    e.preventDefault();
    accept(Math.max(app.active, 0));
  } else if (e.key === 'Tab' && ui.input.value.startsWith('/')) {
    // Mid-command with nothing to take (choices still loading): stay in the box, as Discord does.
    e.preventDefault();
  } else if (e.key === 'Enter') {
    e.preventDefault();
    if (open && app.active >= 0) accept(app.active);
    else send();
  } else if (e.key === 'Escape') {
    showSuggestions([], -1);
  }
});
ui.composer.addEventListener('submit', (e) => e.preventDefault());

// ---- start ----

// The about banner stays closed once closed, in this browser.
const ABOUT_CLOSED = 'playground.about-closed';
const about = $('about');
about.hidden = localStorage.getItem(ABOUT_CLOSED) === 'true';
$('about-close').addEventListener('click', () => {
  about.hidden = true;
  localStorage.setItem(ABOUT_CLOSED, 'true');
});

async function start() {
  app.state = await api('/api/state');
  document.getElementById('guild-name').textContent = app.state.guild.name;
  document.getElementById('about-title').textContent = app.state.title;
  if (!app.state.personas.some((p) => p.key === app.as)) app.as = 'bettor';
  ui.personas.replaceChildren(
    // "Ada — admin", not "Ada (admin) — admin": the fixture's display names already carry the role.
    ...app.state.personas.map(
      (p) => new Option(`${p.username.replace(` (${p.key})`, '')} — ${p.key}`, p.key, false, p.key === app.as),
    ),
  );
  ui.personas.addEventListener('change', async () => {
    app.as = ui.personas.value;
    localStorage.setItem('playground.as', app.as);
    app.picked = {};
    connect();
    await loadChannel(app.channelId);
  });
  app.sandboxPanel = setupSandboxPanel(app.state.sandbox === true, app.state.sandboxUrl);
  // Times in messages are read against the sandbox clock: take its reading before drawing any.
  if (app.state.sandbox) await api('/api/sandbox').then(setClock, () => {});
  connect();
  await loadChannel(app.state.channels[0].id);
}

start().catch((err) => showNotice(`The playground could not start: ${err.message}`));

// Timestamps ("in 5 minutes", "Today at 20:30") and the messages' own times move on as the clock does, as in
// Discord, and follow a move of the sandbox clock at once.
const redrawTimes = () => {
  refreshTimestamps(document, clockNow());
  refreshPostedTimes(document, clockNow());
};
setInterval(redrawTimes, 20_000);
onClockChange(redrawTimes);
