import type { IncomingMessage } from 'node:http';
import { BodyTooLarge, readBody as readBounded } from '../../http/body.js';
import { DiscordApiError } from '../api-error.js';
import type { UploadedFile } from '../state/attachments.js';

type Json = Record<string, unknown>;

const MAX_BODY_BYTES = 26 * 1024 * 1024;

export interface ParsedBody {
  body: unknown;
  /** Attachments uploaded as multipart parts (`files[n]`), described as Discord describes them. */
  files: UploadedFile[];
}

const invalidJson = () => new DiscordApiError(400, 50109, 'The request body contains invalid JSON.');

/** JSON bodies, or multipart with `payload_json` plus files (what discord.js sends when a message has files). */
export async function readBody(req: IncomingMessage): Promise<ParsedBody> {
  let raw: Buffer;
  try {
    raw = await readBounded(req, MAX_BODY_BYTES);
  } catch (err) {
    if (err instanceof BodyTooLarge) throw new DiscordApiError(413, 40005, 'Request entity too large');
    throw err;
  }
  if (raw.length === 0) return { body: undefined, files: [] };
  const type = req.headers['content-type'] ?? '';
  if (type.startsWith('multipart/form-data')) return readMultipart(raw, type);
  try {
    return { body: JSON.parse(raw.toString('utf8')), files: [] };
  } catch {
    throw invalidJson();
  }
}

async function readMultipart(raw: Buffer, contentType: string): Promise<ParsedBody> {
  const form = await new Response(new Uint8Array(raw), { headers: { 'content-type': contentType } }).formData();
  let body: unknown = {};
  const files: ParsedBody['files'] = [];
  const parts: { name: string; value: File }[] = [];
  form.forEach((value, name) => {
    if (name === 'payload_json' && typeof value === 'string') {
      try {
        body = JSON.parse(value) as Json;
      } catch {
        throw invalidJson();
      }
    } else if (typeof value !== 'string') {
      parts.push({ name, value });
    }
  });
  for (const { name, value } of parts) {
    files.push({
      field: name,
      filename: value.name,
      size: value.size,
      content_type: value.type || 'application/octet-stream',
      data: Buffer.from(await value.arrayBuffer()),
    });
  }
  return { body, files };
}
