// Route table: finds the route for a method and path, or says why not in the spec's shape (404 / 405 with Allow).
import { RouteTable } from '../../http/routes.js';
import type { Route } from './http.js';
import { ApiError } from './reply.js';

export class Router {
  private readonly table = new RouteTable<Route>();

  constructor(routes: Route[]) {
    for (const route of routes) this.add(route);
  }

  add(route: Route): void {
    this.table.add(route.method, route.path, route);
  }

  find(method: string, path: string): Route {
    const found = this.table.match(method, path);
    if (found.kind === 'found') return found.route;
    if (found.kind === 'not-found') {
      throw new ApiError(404, { detail: `Not found: ${method} ${path} is not an endpoint of this API` });
    }
    const allowed = found.allow.join(', ');
    throw new ApiError(405, { detail: `Method ${method} not allowed on ${path}; use ${allowed}` }, { Allow: allowed });
  }
}
