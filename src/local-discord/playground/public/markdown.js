// A small subset of Discord markdown, enough for bot messages: escape first, then mark up.
import { emojify } from './emoji.js';
import { formatTimestamp, timestampTitle } from './timestamps.js';

const ESC = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => ESC[c]);

/**
 * `names` maps user, role and channel ids to names for mentions, drawn as Discord draws them ("@Ben", "@Bettor",
 * "#results"); `clock` (`{ now, timeZone }`) is what timestamps are read against.
 */
export function markdown(text, names = {}, clock = {}) {
  if (!text) return '';
  const codes = [];
  let html = escapeHtml(text).replace(/```(?:\w*\n)?([\s\S]*?)```|`([^`\n]+)`/g, (_, block, inline) => {
    codes.push(block !== undefined ? `<pre class="md-pre">${block}</pre>` : `<code class="md-code">${inline}</code>`);
    return `@@code${codes.length - 1}@@`;
  });
  html = html
    .replace(/&lt;t:(-?\d+)(?::([tTdDfFR]))?&gt;/g, (_, s, style) => formatTime(Number(s), style, clock))
    .replace(/&lt;@&amp;(\d+)&gt;/g, (_, id) => mention(`@${names[id] ?? 'unknown-role'}`))
    .replace(/&lt;@!?(\d+)&gt;/g, (_, id) => mention(`@${names[id] ?? 'unknown-user'}`))
    .replace(/&lt;#(\d+)&gt;/g, (_, id) => mention(`#${names[id] ?? 'unknown'}`))
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

function formatTime(seconds, style = 'f', clock = {}) {
  const ms = seconds * 1000;
  const iso = new Date(ms).toISOString();
  const text = formatTimestamp(ms, style, clock);
  return `<time class="md-time" data-style="${style}" datetime="${iso}" title="${timestampTitle(ms, clock.timeZone)}">${text}</time>`;
}

const mention = (label) => `<span class="md-mention">${escapeHtml(label)}</span>`;
