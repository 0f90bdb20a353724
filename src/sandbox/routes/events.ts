// GET /odds/v1/events: the event listing over the simulated world.
import type { Ctx, Route } from '../core/http.js';
import { ApiError, ok, type Reply } from '../core/reply.js';
import { pageEvents, parseEventsQuery, QueryError } from '../world/events-query.js';
import { eventRow } from '../world/lifecycle.js';

function listEvents(ctx: Ctx): Reply {
  const world = ctx.sb.world;
  const now = world.nowMs();
  let query: ReturnType<typeof parseEventsQuery>;
  try {
    query = parseEventsQuery(ctx.query, world.clock.today());
  } catch (err) {
    if (err instanceof QueryError) throw new ApiError(400, err.body());
    throw err;
  }
  const forced = world.forcedFinishes();
  const page = pageEvents(world.allEvents(now), query, now, forced);
  const body: Record<string, unknown> = {
    count: page.rows.length,
    truncated: page.truncated,
    next_cursor: page.nextCursor,
  };
  if (query.filters.since !== null) {
    body.since = query.filters.since;
    body.until = query.filters.until;
  }
  body.data = page.rows.map((ev) => eventRow(world.seed, ev, now, forced.get(ev.epk)));
  body.generated_at = new Date(now).toISOString();
  return ok(body);
}

export const eventsRoutes: Route[] = [
  {
    method: 'GET',
    path: '/odds/v1/events',
    handler: listEvents,
    // The demo key reads the same listing: nothing in it is private.
    sample: listEvents,
  },
];
