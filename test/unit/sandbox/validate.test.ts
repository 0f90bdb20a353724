// The sandbox's field checks answer the spec's 400 `{ detail, field }`, the detail saying what to send.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/sandbox/core/reply.js';
import {
  optionalString,
  queryBool,
  queryInt,
  requireInt,
  requireNumber,
  requireString,
  requireStringArray,
} from '../../../src/sandbox/routes/validate.js';

function bodyOf(check: () => unknown): unknown {
  try {
    check();
  } catch (err) {
    if (err instanceof ApiError && err.status === 400) return err.body;
    throw err;
  }
  throw new Error('the check passed');
}

describe('request field checks', () => {
  it('say a missing string is required and a wrong type is the wrong type', () => {
    expect(bodyOf(() => requireString({}, 'session_id'))).toEqual({
      detail: "Field 'session_id' is required: send it as a non-empty string",
      field: 'session_id',
    });
    expect(bodyOf(() => requireString({ session_id: 7 }, 'session_id'))).toEqual({
      detail: "Field 'session_id' must be a string, got number",
      field: 'session_id',
    });
    expect(optionalString({ note: null }, 'note')).toBeUndefined();
  });

  it('check a number is one, then positive, then whole, in that order', () => {
    expect(bodyOf(() => requireNumber({ stake: '5' }, 'stake'))).toEqual({
      detail: `Field 'stake' must be a number, got "5"`,
      field: 'stake',
    });
    expect(bodyOf(() => requireInt({ n: -1.5 }, 'n', { positive: true }))).toEqual({
      detail: "Field 'n' must be positive, got -1.5",
      field: 'n',
    });
    expect(bodyOf(() => requireInt({ n: 2.5 }, 'n'))).toEqual({
      detail: "Field 'n' must be a whole number, got 2.5",
      field: 'n',
    });
    expect(requireInt({ n: 1e20 }, 'n')).toBe(1e20);
  });

  it('bound a list of strings at both ends', () => {
    const ids = (v: unknown) => bodyOf(() => requireStringArray({ ids: v }, 'ids', { min: 1, max: 2 }));
    expect(ids(undefined)).toEqual({ detail: "Field 'ids' is required: send an array of strings", field: 'ids' });
    expect(ids(['a', 1])).toEqual({ detail: "Field 'ids' must be an array of strings", field: 'ids' });
    expect(ids([])).toEqual({ detail: "Field 'ids' needs at least 1 item(s)", field: 'ids' });
    expect(ids(['a', 'b', 'c'])).toEqual({ detail: "Field 'ids' takes at most 2 items", field: 'ids' });
  });

  it('read query integers and booleans from their text', () => {
    const q = new URLSearchParams({ limit: '2.5', days: '0', flag: 'yes', on: '1' });
    expect(bodyOf(() => queryInt(q, 'limit'))).toEqual({
      detail: "Field 'limit' must be a whole number, got '2.5'",
      field: 'limit',
    });
    expect(bodyOf(() => queryInt(q, 'days', { positive: true }))).toEqual({
      detail: "Field 'days' must be positive, got 0",
      field: 'days',
    });
    expect(bodyOf(() => queryBool(q, 'flag'))).toEqual({
      detail: "Field 'flag' must be true or false, got 'yes'",
      field: 'flag',
    });
    expect(queryBool(q, 'on')).toBe(true);
    expect(queryInt(q, 'absent')).toBeUndefined();
  });
});
