// Every API route, in one list. Each module exports its own Route[]; add a module with one import + one line.
import type { Route } from '../core/http.js';
import { betStatusRoutes } from './bet-status.js';
import { eventsRoutes } from './events.js';
import { sessionRoutes } from './sessions.js';

export const apiRoutes: Route[] = [...sessionRoutes, ...betStatusRoutes, ...eventsRoutes];
