// Route table: finds the route for a method and path, or says why not (404 / 405).
import type { Route } from './http.js';
import { ApiError } from './reply.js';

export class Router {
  private readonly table = new Map<string, Map<string, Route>>();

  constructor(routes: Route[]) {
    for (const route of routes) this.add(route);
  }

  add(route: Route): void {
    const byMethod = this.table.get(route.path) ?? new Map<string, Route>();
    if (byMethod.has(route.method)) throw new Error(`duplicate route ${route.method} ${route.path}`);
    byMethod.set(route.method, route);
    this.table.set(route.path, byMethod);
  }

  find(method: string, path: string): Route {
    const byMethod = this.table.get(path);
    if (!byMethod) throw new ApiError(404, { detail: `Not found: ${method} ${path} is not an endpoint of this API` });
    const route = byMethod.get(method);
    if (!route) {
      const allowed = [...byMethod.keys()].join(', ');
      throw new ApiError(
        405,
        { detail: `Method ${method} not allowed on ${path}; use ${allowed}` },
        { Allow: allowed },
      );
    }
    return route;
  }
}
