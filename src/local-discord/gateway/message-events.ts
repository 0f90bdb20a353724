import type { World } from '../state/world.js';
import { type LocalMessage, toApiMessage } from '../types.js';
import type { GatewayServer } from './server.js';

const GUILD_MESSAGES = 1 << 9;
const DIRECT_MESSAGES = 1 << 12;
const MESSAGE_CONTENT = 1 << 15;

/**
 * Without the MESSAGE_CONTENT intent Discord blanks content, embeds, attachments and components of messages
 * that are not the bot's own (and do not mention it); the bot's own messages always arrive whole.
 */
function shapeFor(world: World, message: LocalMessage) {
  const api = toApiMessage(message);
  return (intents: number) => {
    if ((intents & MESSAGE_CONTENT) !== 0 || message.author.id === world.botUser.id) return api;
    return { ...api, content: '', embeds: [], attachments: [], components: [] };
  };
}

/** MESSAGE_CREATE / MESSAGE_UPDATE / MESSAGE_DELETE for sessions with the GUILD_MESSAGES intent; ephemeral ones never go out. */
export function forwardMessageEvents(world: World, gateway: GatewayServer): void {
  world.events.on('messageCreate', ({ message }) => {
    if (message.visibleTo !== null) return;
    const intent = world.isDm(message.channel_id) ? DIRECT_MESSAGES : GUILD_MESSAGES;
    gateway.dispatch('MESSAGE_CREATE', null, { intent, shape: shapeFor(world, message) });
  });
  world.events.on('messageUpdate', ({ message }) => {
    if (message.visibleTo !== null) return;
    const intent = world.isDm(message.channel_id) ? DIRECT_MESSAGES : GUILD_MESSAGES;
    gateway.dispatch('MESSAGE_UPDATE', null, { intent, shape: shapeFor(world, message) });
  });
  world.events.on('messageDelete', ({ message }) => {
    if (message.visibleTo !== null) return;
    const data = { id: message.id, channel_id: message.channel_id, guild_id: world.guildId };
    gateway.dispatch('MESSAGE_DELETE', data, { intent: GUILD_MESSAGES });
  });
}
