import { RouteTable } from '../../http/routes.js';
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
  /** Extra response headers (e.g. a create's X-RateLimit-*). */
  headers?: Record<string, string>;
}

export interface Route {
  method: string;
  /** Path after /api/v10, with :name segments. */
  path: string;
  /** Bot routes need `Authorization: Bot <token>`; interaction webhook routes need none, as on Discord. */
  auth: boolean;
  handle(ctx: RouteContext): RouteResult | Promise<RouteResult>;
}

/** Matches a method and a path (segments already decoded) to a route and its parameters. */
export class Router {
  readonly #table = new RouteTable<Route>({ trailingSlash: true });

  add(...routes: Route[]): this {
    for (const route of routes) this.#table.add(route.method, route.path, route);
    return this;
  }

  /** Null for an unknown path and for a known path with another method: the double answers both with 404. */
  match(method: string, path: string): { route: Route; params: Record<string, string> } | null {
    const found = this.#table.match(method, path);
    return found.kind === 'found' ? { route: found.route, params: found.params } : null;
  }
}
