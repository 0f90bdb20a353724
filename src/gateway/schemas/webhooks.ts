import { z } from 'zod';

export const WebhookMetadata = z.looseObject({
  bookie: z.string().nullish(),
  username: z.string().nullish(),
  session_id: z.string().nullish(),
});

/** Body POSTed to a callback_url when a job leaves pending. */
export const WebhookBody = z.looseObject({
  correlation_id: z.string().min(1),
  result: z.unknown(),
  metadata: WebhookMetadata.optional(),
  delivered_at: z.string().optional(),
  status: z.string().optional(),
});
export type WebhookBody = z.infer<typeof WebhookBody>;
