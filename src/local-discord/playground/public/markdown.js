// A small subset of Discord markdown, enough for bot messages: escape first, then mark up.
import { emojify } from './emoji.js';

const ESC = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => ESC[c]);

/** `names` maps user and channel ids to display names for mentions. */
export function markdown(text, names = {}) {
  if (!text) return '';
  const codes = [];
  let html = escapeHtml(text).replace(/```(?:\w*\n)?([\s\S]*?)```|`([^`\n]+)`/g, (_, block, inline) => {
    codes.push(block !== undefined ? `<pre class="md-pre">${block}</pre>` : `<code class="md-code">${inline}</code>`);
    return `@@code${codes.length - 1}@@`;
  });
  html = html
    .replace(/&lt;t:(-?\d+)(?::([tTdDfFR]))?&gt;/g, (_, s, style) => formatTime(Number(s), style))
    .replace(/&lt;@!?(\d+)&gt;/g, (_, id) => `<span class="md-mention">@${escapeHtml(names[id] ?? id)}</span>`)
    .replace(/&lt;#(\d+)&gt;/g, (_, id) => `<span class="md-mention">#${escapeHtml(names[id] ?? id)}</span>`)
    .replace(/\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g, '<a href="$2" target="_blank" rel="noopener noreferrer">$1</a>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/__([^_]+)__/g, '<u>$1</u>')
    .replace(/(^|[^*])\*([^*\n]+)\*/g, '$1<em>$2</em>')
    .replace(/(^|[\s(])_([^_\n]+)_(?=$|[\s).,!?])/g, '$1<em>$2</em>')
    .replace(/~~([^~]+)~~/g, '<s>$1</s>')
    .replace(/^&gt; (.*)$/gm, '<span class="md-quote">$1</span>')
    .replace(/^-# (.*)$/gm, '<small class="md-subtext">$1</small>')
    .replace(/\n/g, '<br>');
  return emojify(html.replace(/@@code(\d+)@@/g, (_, i) => codes[Number(i)]));
}

const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "in 5 minutes", "2 hours ago": what Discord shows for a <t:…:R> timestamp at `now`. */
export function relativeTime(ms, now = Date.now()) {
  const diff = Math.round((ms - now) / 60000);
  if (Math.abs(diff) < 60) return rtf.format(diff, 'minute');
  if (Math.abs(diff) < 48 * 60) return rtf.format(Math.round(diff / 60), 'hour');
  return rtf.format(Math.round(diff / 1440), 'day');
}

/** Re-renders every relative time under `root` (the page calls it on a timer). */
export function refreshRelativeTimes(root, now = Date.now()) {
  for (const el of root.querySelectorAll('time[data-relative]')) {
    el.textContent = relativeTime(Date.parse(el.getAttribute('datetime')), now);
  }
}

function formatTime(seconds, style = 'f') {
  const d = new Date(seconds * 1000);
  if (style === 'R') {
    return `<time class="md-time" data-relative datetime="${d.toISOString()}" title="${d.toUTCString()}">${relativeTime(d.getTime())}</time>`;
  }
  const opts = {
    t: { timeStyle: 'short' },
    T: { timeStyle: 'medium' },
    d: { dateStyle: 'short' },
    D: { dateStyle: 'long' },
    f: { dateStyle: 'long', timeStyle: 'short' },
    F: { dateStyle: 'full', timeStyle: 'short' },
  }[style] ?? { dateStyle: 'long', timeStyle: 'short' };
  return `<time class="md-time" datetime="${d.toISOString()}">${new Intl.DateTimeFormat('en', opts).format(d)}</time>`;
}
