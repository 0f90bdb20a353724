import { describe, expect, it } from 'vitest';
import { markdown } from '../../../src/local-discord/playground/public/markdown.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');

describe('timestamps in message text', () => {
  it('draws <t:…:R> against the clock it is given, marked so the page can draw it again', () => {
    // A day ahead of the machine, as after the Sandbox panel's "Advance 1 day".
    const html = markdown(`expires <t:${(NOW + 2 * 60_000) / 1000}:R>`, {}, { now: NOW, timeZone: 'UTC' });
    expect(html).toMatch(/<time class="md-time" data-style="R" datetime="2026-11-22T12:02:00.000Z"[^>]*>in 2 minutes</);
  });

  it('draws <t:…:f> as Today/Tomorrow at a time on the given clock', () => {
    const at = (NOW + 8.5 * 3_600_000) / 1000;
    expect(markdown(`<t:${at}:f>`, {}, { now: NOW, timeZone: 'UTC' })).toContain('>Today at 20:30<');
    expect(markdown(`<t:${at}:f>`, {}, { now: NOW - 86_400_000, timeZone: 'UTC' })).toContain('>Tomorrow at 20:30<');
  });
});

describe('mentions in message text', () => {
  const names = { '101': 'Ben', '201': 'results', '301': 'Bettor' };

  it('draws role, member and channel mentions by name, as Discord does', () => {
    const html = markdown('<@&301> and <@101> in <#201>', names);
    expect(html).toBe(
      '<span class="md-mention">@Bettor</span> and <span class="md-mention">@Ben</span> in <span class="md-mention">#results</span>',
    );
  });

  it('draws a mention of someone unknown as Discord does, not as an id', () => {
    expect(markdown('<@&999> <@998> <#997>', names)).toBe(
      '<span class="md-mention">@unknown-role</span> <span class="md-mention">@unknown-user</span> <span class="md-mention">#unknown</span>',
    );
  });
});
