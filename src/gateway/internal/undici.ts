// The parts of undici the client uses, required by file. undici's index loads all of undici (fetch, WebSocket, the
// caches, the mocks, the interceptors): about 2 MB of heap in every process that imports the client, for code the
// client never runs. The version is pinned exactly in package.json, so these paths are the ones tested.
import { createRequire } from 'node:module';
import type * as undici from 'undici';

const require = createRequire(import.meta.url);

export const Agent: typeof undici.Agent = require('undici/lib/dispatcher/agent.js');
export const util: Pick<typeof undici.util, 'parseHeaders'> = require('undici/lib/core/util.js');
// As the index does on load: an Agent becomes the process's global dispatcher when none is set yet (Node's fetch and
// discord.js's undici read it), so loading the client changes nothing else in the process.
require('undici/lib/global.js');
