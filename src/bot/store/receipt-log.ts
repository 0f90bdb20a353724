// A receipt's one durable write on SQLite (decisions 2120 and 2137): a synchronous append to a file of its own. An
// append is one write(2) on the main thread: no trip through libuv's thread pool (which the statements of the
// members' slips and Confirms keep busy), no turn of the event loop to wait for, and no wait for the store's writer.
// SQLite's synchronous=NORMAL does not sync each commit either: like the SQLite journal it replaces, an append
// survives the process being killed, not the machine losing power before the kernel writes it out.
import {
  closeSync,
  existsSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs';

/** The receipt log beside the store's SQLite file. */
export const receiptLogOf = (storeFile: string): string => `${storeFile}-receipts.log`;

/** A delivery kept: its job, the body as signed, when it came (epoch ms). */
export interface KeptReceipt {
  correlationId: string;
  raw: string;
  receivedAt: number;
}

/** Past this size, with receipts still pending, the file is written again with only those (a rare case). */
const COMPACT_BYTES = 4 * 1024 * 1024;

function lineOf(k: KeptReceipt): string {
  return `${JSON.stringify({ id: k.correlationId, at: k.receivedAt, raw: k.raw })}\n`;
}

/**
 * Every delivery a journal file holds, oldest first, once each. A line a kill cut short (the last one, its append
 * never finished, so its delivery was never answered 2xx) or that is not one of ours is skipped.
 */
export function readReceiptLog(file: string): KeptReceipt[] {
  return existsSync(file) ? parseReceiptLog(readFileSync(file, 'utf8')) : [];
}

function parseReceiptLog(text: string): KeptReceipt[] {
  const seen = new Map<string, KeptReceipt>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      continue;
    }
    const { id, at, raw } = (v ?? {}) as { id?: unknown; at?: unknown; raw?: unknown };
    if (typeof id !== 'string' || typeof raw !== 'string' || typeof at !== 'number') continue;
    if (!seen.has(id)) seen.set(id, { correlationId: id, raw, receivedAt: at });
  }
  return [...seen.values()];
}

/**
 * Keeps each delivery with one append and lets it go once the store has it; the file is emptied whenever nothing is
 * pending. One writer: the one process a SQLite file serves (docs/operations.md).
 */
export class ReceiptLog {
  readonly #file: string;
  readonly #compactBytes: number;
  /** The open file; -1 once closed. */
  #fd: number;
  /** The file's length as this process wrote it: where a failed append is cut back to. */
  #size: number;
  readonly #pending = new Map<string, KeptReceipt>();

  constructor(file: string, opts: { compactBytes?: number } = {}) {
    this.#file = file;
    this.#compactBytes = opts.compactBytes ?? COMPACT_BYTES;
    this.#fd = openSync(file, 'a');
    const text = readFileSync(file, 'utf8');
    // What a stop left: pending until a start's replay has stored it.
    for (const k of parseReceiptLog(text)) this.#pending.set(k.correlationId, k);
    // A last line a kill cut short is cut off, so the next append starts a line of its own.
    this.#size = Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1));
    if (this.#size !== fstatSync(this.#fd).size) ftruncateSync(this.#fd, this.#size);
  }

  /**
   * Keeps a delivery: true the first time its job's delivery is kept (the line is in the file when it returns),
   * false while a copy is pending. Throws when the line could not be written whole (a full disk): the file is cut
   * back to where it was and the delivery is not kept, so the receiver answers 500 and the gateway sends it again.
   */
  add(correlationId: string, raw: string, receivedAt: number): boolean {
    if (this.#fd < 0) throw new Error('the receipt log is closed');
    if (this.#pending.has(correlationId)) return false;
    const kept = { correlationId, raw, receivedAt };
    const line = Buffer.from(lineOf(kept));
    let written: number;
    try {
      written = writeSync(this.#fd, line);
    } catch (err) {
      this.#cutBack();
      throw err;
    }
    if (written !== line.length) {
      this.#cutBack();
      throw new Error(`the receipt log took ${written} of ${line.length} bytes (is the disk full?)`);
    }
    this.#size += written;
    this.#pending.set(correlationId, kept);
    return true;
  }

  #cutBack(): void {
    try {
      ftruncateSync(this.#fd, this.#size);
    } catch {
      // The next open cuts a torn last line off in any case.
    }
  }

  /** The store has the delivery: the log forgets it (the file empties once nothing is pending). */
  applied(correlationId: string): void {
    if (!this.#pending.delete(correlationId) || this.#fd < 0) return;
    if (this.#pending.size === 0) {
      ftruncateSync(this.#fd, 0);
      this.#size = 0;
      return;
    }
    if (this.#size > this.#compactBytes) this.#compact();
  }

  /** Whether a delivery of this job is kept and not yet stored. */
  has(correlationId: string): boolean {
    return this.#pending.has(correlationId);
  }

  get pending(): number {
    return this.#pending.size;
  }

  /**
   * The pending deliveries written to a new file that then takes the old one's name (a rename is atomic); the new
   * file is open before the old one is closed, so a failure leaves the log as it was.
   */
  #compact(): void {
    const next = `${this.#file}.next`;
    const out = openSync(next, 'w');
    let size = 0;
    try {
      for (const k of this.#pending.values()) size += writeSync(out, lineOf(k));
    } finally {
      closeSync(out);
    }
    const fd = openSync(next, 'a');
    try {
      renameSync(next, this.#file);
    } catch (err) {
      closeSync(fd);
      throw err;
    }
    closeSync(this.#fd);
    this.#fd = fd;
    this.#size = size;
  }

  close(): void {
    if (this.#fd < 0) return;
    closeSync(this.#fd);
    this.#fd = -1;
  }
}
