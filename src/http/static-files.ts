// Reading files to serve from one folder, never outside it.
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.map': 'application/json; charset=utf-8',
};

export interface StaticFile {
  body: Buffer;
  contentType: string;
}

/** Reads `relPath` (URL-encoded) under `root`, refusing anything that escapes it; undefined when absent. */
export async function readUnder(root: string, relPath: string): Promise<StaticFile | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(relPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const full = normalize(join(root, decoded));
  if (full !== root && !full.startsWith(root + sep)) return undefined;
  try {
    const info = await stat(full);
    if (!info.isFile()) return undefined;
    return { body: await readFile(full), contentType: TYPES[extname(full)] ?? 'application/octet-stream' };
  } catch {
    return undefined;
  }
}
