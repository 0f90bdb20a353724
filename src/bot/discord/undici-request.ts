// undici 7's `request` without undici's index. The index loads all of undici (fetch, WebSocket, the caches, the
// mocks): about 3 MB of heap in the bot at start for code it never runs (figure 7; the gateway client avoids it the
// same way, decision 2090). The version is pinned exactly in package.json, so these paths are the ones tested.
import { createRequire } from 'node:module';
import type { Dispatcher } from 'undici';

const require = createRequire(import.meta.url);

type ApiRequest = (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
const apiRequest: ApiRequest = require('undici/lib/api/api-request.js');
const { getGlobalDispatcher } = require('undici/lib/global.js') as { getGlobalDispatcher: () => Dispatcher };

export interface RequestInit {
  method: Dispatcher.HttpMethod;
  headers: Record<string, string>;
  body: string | Uint8Array | null;
  signal?: AbortSignal;
  /** The process's global dispatcher when none is given (undici 7's Agent, shared with the gateway client). */
  dispatcher?: Dispatcher;
}

/** One request to a full URL, as undici's `request(url, opts)` sends it. */
export function request(url: string, init: RequestInit): Promise<Dispatcher.ResponseData> {
  const { origin, pathname, search } = new URL(url);
  const { dispatcher, ...opts } = init;
  return apiRequest.call(dispatcher ?? getGlobalDispatcher(), { ...opts, origin, path: `${pathname}${search}` });
}
