/** Bytes of files the bot uploaded with its messages, served back at their attachment URLs like Discord's CDN. */

type Json = Record<string, unknown>;

export interface UploadedFile {
  /** The multipart part's name: `files[n]`, where n is the id the payload's `attachments` gives it. */
  field: string;
  filename: string;
  size: number;
  content_type: string;
  data: Buffer;
}

interface Stored {
  filename: string;
  contentType: string;
  data: Buffer;
}

/** Discord names a file's type by its extension when the upload does not say. */
const BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

const typeOf = (f: UploadedFile) =>
  f.content_type && f.content_type !== 'application/octet-stream'
    ? f.content_type
    : (BY_EXTENSION[f.filename.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream');

/** Enough for a long test run of charts; the oldest files go first beyond it (their messages keep the URL). */
const MAX_BYTES = 256 * 1024 * 1024;

export class AttachmentStore {
  readonly #files = new Map<string, Stored>();
  #bytes = 0;

  constructor(private readonly snowflake: () => string) {}

  /**
   * Keeps the uploaded files of one message and describes them as Discord does (id, filename, size, type, url).
   * `described`: the payload's `attachments` entries, which may give a new file its description.
   */
  add(origin: string, channelId: string, files: readonly UploadedFile[], described?: unknown): Json[] {
    const notes = new Map<string, Json>();
    if (Array.isArray(described)) for (const a of described as Json[]) notes.set(String(a?.id), a);
    return files.map((f) => {
      const id = this.snowflake();
      const contentType = typeOf(f);
      this.#files.set(id, { filename: f.filename, contentType, data: f.data });
      this.#bytes += f.data.length;
      this.#trim();
      const url = `${origin}/attachments/${channelId}/${id}/${encodeURIComponent(f.filename)}`;
      const note = notes.get(/^files\[(\d+)\]$/.exec(f.field)?.[1] ?? '');
      return {
        id,
        filename: f.filename,
        size: f.size,
        content_type: contentType,
        url,
        proxy_url: url,
        ...(typeof note?.description === 'string' ? { description: note.description } : {}),
      };
    });
  }

  get(id: string): Stored | undefined {
    return this.#files.get(id);
  }

  #trim(): void {
    for (const [id, f] of this.#files) {
      if (this.#bytes <= MAX_BYTES) return;
      this.#files.delete(id);
      this.#bytes -= f.data.length;
    }
  }
}
