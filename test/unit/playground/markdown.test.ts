import { describe, expect, it } from 'vitest';
import { markdown, refreshRelativeTimes, relativeTime } from '../../../src/local-discord/playground/public/markdown.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');

describe('relative timestamps in the playground', () => {
  it('reads as Discord does', () => {
    expect(relativeTime(NOW + 5 * 60_000, NOW)).toBe('in 5 minutes');
    expect(relativeTime(NOW - 2 * 3_600_000, NOW)).toBe('2 hours ago');
    expect(relativeTime(NOW + 3 * 86_400_000, NOW)).toBe('in 3 days');
  });

  it('marks <t:…:R> so the page can move it on, and moves it on', () => {
    const html = markdown(`starts <t:${(NOW + 5 * 60_000) / 1000}:R>`);
    expect(html).toMatch(/<time class="md-time" data-relative datetime="2026-11-22T12:05:00.000Z"/);
    const el = { textContent: 'in 5 minutes', getAttribute: () => '2026-11-22T12:05:00.000Z' };
    refreshRelativeTimes({ querySelectorAll: () => [el] }, NOW + 10 * 60_000);
    expect(el.textContent).toBe('5 minutes ago');
  });
});
