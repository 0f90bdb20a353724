import { describe, expect, it } from 'vitest';
import { chooseDay, dayIn, utcWindowFor } from '../../../src/bot/model/dates.js';

const now = Date.parse('2026-11-21T22:30:00Z');

describe('viewer days', () => {
  it('reads the day in the viewer time zone', () => {
    expect(dayIn(now, 'UTC')).toBe('2026-11-21');
    expect(dayIn(now, 'Australia/Sydney')).toBe('2026-11-22');
    expect(dayIn(now, 'America/New_York')).toBe('2026-11-21');
  });

  it('understands today, tomorrow and explicit dates', () => {
    expect(chooseDay(undefined, now, 'UTC')).toEqual({ ok: true, day: '2026-11-21' });
    expect(chooseDay('tomorrow', now, 'Australia/Sydney')).toEqual({ ok: true, day: '2026-11-23' });
    expect(chooseDay('2026-11-25', now, 'UTC')).toEqual({ ok: true, day: '2026-11-25' });
  });

  it('refuses a past date and a non-date with what to type', () => {
    const past = chooseDay('2026-11-20', now, 'UTC');
    expect(past.ok).toBe(false);
    if (!past.ok) expect(past.message).toMatch(/in the past/);
    const junk = chooseDay('next friday', now, 'UTC');
    expect(junk.ok).toBe(false);
    if (!junk.ok) expect(junk.message).toMatch(/YYYY-MM-DD/);
    expect(chooseDay('2026-02-30', now, 'UTC').ok).toBe(false);
  });

  it('says past days need status:finished when yesterday is asked without it', () => {
    const r = chooseDay('yesterday', now, 'UTC');
    expect(r.ok ? '' : r.message).toBe(
      'Yesterday (2026-11-20) is in the past: past days need status:finished, which lists their results. Add it, or pick today or a later day.',
    );
    expect(chooseDay('yesterday', now, 'UTC', { past: true })).toEqual({ ok: true, day: '2026-11-20' });
  });

  it('covers neighbouring UTC days for a local day', () => {
    expect(utcWindowFor('2026-11-22')).toEqual({ since: '2026-11-21', until: '2026-11-23' });
  });
});
