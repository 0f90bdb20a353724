import type { UploadedFile } from '../state/attachments.js';
import type { World } from '../state/world.js';

export interface RouteContext {
  world: World;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  files: UploadedFile[];
  /** http://host:port, for URLs the double hands out (gateway, attachments). */
  origin: string;
}

export interface RouteResult {
  status: number;
  body?: unknown;
}

export interface Route {
  method: string;
  /** Path after /api/v10, with :name segments. */
  path: string;
  /** Bot routes need `Authorization: Bot <token>`; interaction webhook routes need none, as on Discord. */
  auth: boolean;
  handle(ctx: RouteContext): RouteResult | Promise<RouteResult>;
}

interface CompiledRoute extends Route {
  pattern: RegExp;
  names: string[];
}

/** Matches a method and a path (segments already decoded) to a route and its parameters. */
export class Router {
  readonly #routes: CompiledRoute[] = [];

  add(...routes: Route[]): this {
    for (const route of routes) {
      const names: string[] = [];
      const source = route.path
        .split('/')
        .map((seg) => {
          if (!seg.startsWith(':')) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          names.push(seg.slice(1));
          return '([^/]+)';
        })
        .join('/');
      this.#routes.push({ ...route, pattern: new RegExp(`^${source}/?$`), names });
    }
    return this;
  }

  match(method: string, path: string): { route: Route; params: Record<string, string> } | null {
    for (const route of this.#routes) {
      if (route.method !== method) continue;
      const m = route.pattern.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => {
        params[name] = m[i + 1] ?? '';
      });
      return { route, params };
    }
    return null;
  }
}
