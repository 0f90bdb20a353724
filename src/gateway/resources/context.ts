import type { z } from 'zod';
import type { JobHandle, JobTracker } from '../jobs.js';
import { AsyncEnvelope } from '../schemas/jobs.js';
import type { Transport } from '../transport.js';
import { parseRequest } from '../validate.js';

/** What every resource gets: the shared request path and the client's one job tracker. */
export class ResourceContext {
  constructor(
    readonly transport: Transport,
    readonly jobs: JobTracker,
  ) {}

  /** Synchronous POST: validate, send, parse. */
  async post<S extends z.ZodType>(
    path: string,
    requestSchema: z.ZodType,
    input: unknown,
    schema: S,
    opts: { idempotent: boolean },
  ): Promise<z.output<S>> {
    const body = parseRequest(requestSchema, input, `POST ${path}`);
    return this.transport.request({ method: 'POST', path, body, schema, idempotent: opts.idempotent });
  }

  /** Async POST answered 202: validate, send, parse the envelope, hand back a job handle. */
  async submit<T>(
    path: string,
    requestSchema: z.ZodType,
    input: unknown,
    resultSchema: z.ZodType<T>,
    opts: { idempotent: boolean },
  ): Promise<JobHandle<T>> {
    const envelope = await this.post(path, requestSchema, input, AsyncEnvelope, opts);
    return this.jobs.handle(envelope, resultSchema);
  }
}
