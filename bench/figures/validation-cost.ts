// Figure 2: the client's zod parse of a 500-event page against JSON.parse of the same bytes.
import { EventsPage } from '../../src/gateway/index.js';
import { interleave, msPerOp } from '../lib/ab.js';
import { type FigureResult, figure } from '../lib/figure.js';
import { eventsPage } from '../lib/fixtures.js';

export async function validationCost(): Promise<FigureResult[]> {
  const text = JSON.stringify(eventsPage(500));
  const data: unknown = JSON.parse(text);
  const check = EventsPage.safeParse(data);
  if (!check.success) throw new Error(`the 500-event page does not pass the client's schema: ${check.error.message}`);
  const perBatch = 20;
  const ab = await interleave(
    { repeats: 21, warmup: 3 },
    () => msPerOp(perBatch, () => EventsPage.safeParse(data)),
    () => msPerOp(perBatch, () => JSON.parse(text)),
  );
  return [
    figure({
      name: '2 validation cost (500-event page)',
      value: ab.medianA,
      unit: 'ms/page',
      baseline: ab.medianB,
      target: { on: 'ratio', op: '<=', limit: 0.3 },
      note: `${Buffer.byteLength(text)} bytes; EventsPage.safeParse (the schema client.events.list applies) vs JSON.parse of the same bytes; medians of 21 interleaved repeats x ${perBatch}`,
    }),
  ];
}
