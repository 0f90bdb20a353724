/** Replaces every occurrence of a secret in strings nested anywhere in a JSON-like value. */
export function redact<T>(value: T, secret: string | undefined): T {
  if (!secret) return value;
  return walk(value, secret) as T;
}

const MASK = '[redacted]';

function walk(value: unknown, secret: string): unknown {
  if (typeof value === 'string') return value.split(secret).join(MASK);
  if (Array.isArray(value)) return value.map((v) => walk(v, secret));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k.split(secret).join(MASK)] = walk(v, secret);
    return out;
  }
  return value;
}
