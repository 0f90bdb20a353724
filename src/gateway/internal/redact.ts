/** Replaces every occurrence of a secret (or of any of several) in strings nested anywhere in a JSON-like value. */
export function redact<T>(value: T, secret: string | readonly string[] | undefined): T {
  const secrets = (typeof secret === 'string' ? [secret] : (secret ?? [])).filter((s) => s !== '');
  if (secrets.length === 0) return value;
  // Longest first, so a secret that contains another is masked whole.
  return walk(
    value,
    [...secrets].sort((a, b) => b.length - a.length),
  ) as T;
}

const MASK = '[redacted]';

function mask(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join(MASK);
  return out;
}

function walk(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return mask(value, secrets);
  if (Array.isArray(value)) return value.map((v) => walk(v, secrets));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[mask(k, secrets)] = walk(v, secrets);
    return out;
  }
  return value;
}

/** Shortest user name or password taken as a secret: masking every "a" or "ab" in a message would garble it. */
const MIN_USERINFO_SECRET = 3;

/**
 * A base URL safe to print: the user name and password (`user:password@`) replaced by a mask, and the secrets
 * they are (raw and percent-decoded) for masking wherever else they turn up (an upstream error's message).
 */
export function redactUrl(url: string): { shown: string; secrets: string[] } {
  const parsed = new URL(url);
  if (parsed.username === '' && parsed.password === '') return { shown: url, secrets: [] };
  const secrets = new Set<string>();
  for (const part of [parsed.username, parsed.password]) {
    if (part.length < MIN_USERINFO_SECRET) continue;
    secrets.add(part);
    secrets.add(safeDecode(part));
  }
  const rest = `${parsed.pathname}${parsed.search}${parsed.hash}`.replace(/^\/$/, '');
  return { shown: `${parsed.protocol}//${MASK}@${parsed.host}${rest}`, secrets: [...secrets] };
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
