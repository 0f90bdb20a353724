import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  APIError,
  CardLimitError,
  ClientClosedError,
  DeprecatedEndpointError,
  GatewayError,
  InvalidTierError,
  NetworkError,
  RequestTimeoutError,
  RequestValidationError,
  ResponseShapeError,
  ResponseTooLargeError,
  ServiceUnavailableError,
} from '../../../src/gateway/errors.js';

const BASE_KEYS = ['name', 'message', 'status', 'method', 'path', 'correlationId', 'requestId', 'headers', 'body'];

describe('gateway errors', () => {
  it("copy a subclass's own fields from init and show them after the base ones, in the class's order", () => {
    const e = new NetworkError('GET /v3/x: socket hang up', { mayHaveReachedServer: true, code: 'ECONNRESET' });
    expect(e.mayHaveReachedServer).toBe(true);
    expect(e.code).toBe('ECONNRESET');
    expect(Object.keys(e.toJSON())).toEqual([...BASE_KEYS, 'code', 'mayHaveReachedServer']);
    const t = new RequestTimeoutError('late', { mayHaveReachedServer: false, timeoutMs: 500 });
    expect(Object.keys(t.toJSON())).toEqual([...BASE_KEYS, 'timeoutMs', 'mayHaveReachedServer']);
    expect(t.toJSON()).toMatchObject({ name: 'RequestTimeoutError', timeoutMs: 500, mayHaveReachedServer: false });
  });

  it('give a field its default when init leaves it out', () => {
    expect(new ClientClosedError('GET /v3/x').mayHaveReachedServer).toBe(false);
    expect(new ResponseShapeError('bad', { issues: ['x'] }).jobCompleted).toBe(false);
    expect(new DeprecatedEndpointError('gone', {}).use).toBeUndefined();
  });

  it('say a too-large answer reached the gateway, whatever init says', () => {
    const init = { limitBytes: 10, mayHaveReachedServer: false };
    const e = new ResponseTooLargeError('big', init);
    expect(e.mayHaveReachedServer).toBe(true);
    expect(e.toJSON()).toMatchObject({ limitBytes: 10, mayHaveReachedServer: true });
  });

  it('keep ClientClosedError telling whether to check before resending', () => {
    expect(new ClientClosedError('POST /v3/place_bet', { mayHaveReachedServer: true }).message).toBe(
      'POST /v3/place_bet: the gateway client was closed while the request was in flight; it may have reached the gateway, so check its result before sending it again. Create a new GatewayClient to continue.',
    );
    expect(new ClientClosedError('GET /v3/x').message).toBe(
      'GET /v3/x: the gateway client was closed; nothing was sent. Create a new GatewayClient to continue.',
    );
  });

  it('inherit the fields of the class they extend', () => {
    const e = new InvalidTierError('422', { status: 422, validTiers: ['basic'] });
    expect(e).toBeInstanceOf(APIError);
    expect(e.name).toBe('InvalidTierError');
    expect(e.toJSON()).toMatchObject({ status: 422, validTiers: ['basic'] });
    expect(inspect(e)).toContain("validTiers: [ 'basic' ]");
    const s = new ServiceUnavailableError('503', { retryAfterMs: 1500 });
    expect(s.retryAfterMs).toBe(1500);
    expect(Object.keys(s)).toContain('retryAfterMs');
  });

  it('type-check init per class: a missing required field or an unknown one is refused (checked by tsc)', () => {
    const made = [
      new GatewayError('fine without init'),
      new APIError('fine without init'),
      // @ts-expect-error NetworkError needs mayHaveReachedServer
      new NetworkError('x', {}),
      // @ts-expect-error CardLimitError needs its init
      new CardLimitError('x'),
      // @ts-expect-error RequestValidationError needs field and issues
      new RequestValidationError('x', { field: 'stake' }),
      // @ts-expect-error APIError takes no fields of its own
      new APIError('x', { retryAfterMs: 1 }),
    ];
    expect(made.every((e) => e instanceof GatewayError)).toBe(true);
  });
});
