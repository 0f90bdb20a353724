import type { z } from 'zod';
import { APIPromise } from '../api-promise.js';
import type { QueryValue, Transport } from '../internal/transport.js';
import { parseRequest } from '../internal/validate.js';
import type { JobHandle, JobTracker } from '../jobs.js';
import type { RequestOptions } from '../request-options.js';
import { AsyncEnvelope } from '../schemas/jobs.js';

/** What every resource gets: the shared request path and the client's one job tracker. */
export class ResourceContext {
  constructor(
    readonly transport: Transport,
    readonly jobs: JobTracker,
  ) {}

  /** Synchronous GET: validate the query, send, parse. */
  get<S extends z.ZodType>(
    path: string,
    querySchema: z.ZodType,
    input: unknown,
    schema: S,
    call: RequestOptions | undefined,
  ): APIPromise<z.output<S>> {
    let query: Record<string, QueryValue>;
    try {
      query = parseRequest(querySchema, input, `GET ${path}`) as Record<string, QueryValue>;
    } catch (err) {
      return APIPromise.reject(err);
    }
    return this.transport.call({ method: 'GET', path, query, schema, idempotent: true }, call);
  }

  /** Synchronous POST: validate, send, parse. */
  post<S extends z.ZodType>(
    path: string,
    requestSchema: z.ZodType,
    input: unknown,
    schema: S,
    opts: { idempotent: boolean },
    call: RequestOptions | undefined,
  ): APIPromise<z.output<S>> {
    let body: unknown;
    try {
      body = parseRequest(requestSchema, input, `POST ${path}`);
    } catch (err) {
      return APIPromise.reject(err);
    }
    return this.transport.call({ method: 'POST', path, body, schema, idempotent: opts.idempotent }, call);
  }

  /** Async POST answered 202: validate, send, parse the envelope, hand back a job handle. */
  submit<T>(
    path: string,
    requestSchema: z.ZodType,
    input: unknown,
    resultSchema: z.ZodType<T>,
    opts: { idempotent: boolean },
    call: RequestOptions | undefined,
  ): APIPromise<JobHandle<T>> {
    return this.post(path, requestSchema, input, AsyncEnvelope, opts, call).map((envelope) =>
      this.jobs.handle(envelope, resultSchema),
    );
  }
}
