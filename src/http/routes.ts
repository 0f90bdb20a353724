// A route table: method + path (with `:name` segments) → the caller's route value, or why not (404 / 405).

export type RouteMatch<T> =
  | { kind: 'found'; route: T; params: Record<string, string> }
  | { kind: 'not-found' }
  /** The path is known but not for this method; `allow` lists the methods that are. */
  | { kind: 'method-not-allowed'; allow: string[] };

export interface RouteTableOptions {
  /** Also match the path with one trailing `/` (Discord accepts both). Default false. */
  trailingSlash?: boolean;
}

interface Entry<T> {
  method: string;
  path: string;
  /** Undefined for a path without parameters: compared as a string, the common and fast case. */
  pattern?: RegExp;
  names: string[];
  route: T;
}

/** First match in the order added wins, as in a list of handlers. */
export class RouteTable<T> {
  readonly #entries: Entry<T>[] = [];
  readonly #trailingSlash: boolean;

  constructor(options: RouteTableOptions = {}) {
    this.#trailingSlash = options.trailingSlash ?? false;
  }

  add(method: string, path: string, route: T): this {
    if (this.#entries.some((e) => e.method === method && e.path === path)) {
      throw new Error(`duplicate route ${method} ${path}`);
    }
    const names: string[] = [];
    const source = path
      .split('/')
      .map((seg) => {
        if (!seg.startsWith(':')) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(seg.slice(1));
        return '([^/]+)';
      })
      .join('/');
    const slash = this.#trailingSlash ? '/?' : '';
    const pattern = names.length > 0 || this.#trailingSlash ? new RegExp(`^${source}${slash}$`) : undefined;
    this.#entries.push({ method, path, ...(pattern ? { pattern } : {}), names, route });
    return this;
  }

  match(method: string, path: string): RouteMatch<T> {
    let allow: string[] | undefined;
    for (const entry of this.#entries) {
      const params = paramsOf(entry, path);
      if (!params) continue;
      if (entry.method === method) return { kind: 'found', route: entry.route, params };
      allow ??= [];
      if (!allow.includes(entry.method)) allow.push(entry.method);
    }
    return allow ? { kind: 'method-not-allowed', allow } : { kind: 'not-found' };
  }
}

function paramsOf(entry: Entry<unknown>, path: string): Record<string, string> | undefined {
  if (!entry.pattern) return entry.path === path ? {} : undefined;
  const m = entry.pattern.exec(path);
  if (!m) return undefined;
  const params: Record<string, string> = {};
  entry.names.forEach((name, i) => {
    params[name] = m[i + 1] ?? '';
  });
  return params;
}
