import { constants, createDeflate, type Deflate } from 'node:zlib';

/**
 * `compress=zlib-stream`: one deflate context for the whole connection, each payload ending in a sync
 * flush (the 00 00 ff ff suffix clients look for). Encodes strictly one payload at a time.
 */
export class ZlibStreamEncoder {
  readonly #deflate: Deflate = createDeflate({ chunkSize: 65_535 });
  #pending: Buffer[] = [];
  #queue: Promise<unknown> = Promise.resolve();

  constructor() {
    this.#deflate.on('data', (chunk: Buffer) => this.#pending.push(chunk));
  }

  encode(text: string): Promise<Buffer> {
    const next = this.#queue.then(
      () =>
        new Promise<Buffer>((resolve) => {
          this.#deflate.write(text);
          this.#deflate.flush(constants.Z_SYNC_FLUSH, () => {
            // The flush callback runs after its output was pushed, so the chunks collected so far are this payload.
            setImmediate(() => {
              const out = Buffer.concat(this.#pending);
              this.#pending = [];
              resolve(out);
            });
          });
        }),
    );
    this.#queue = next;
    return next;
  }

  close(): void {
    this.#deflate.close();
  }
}
