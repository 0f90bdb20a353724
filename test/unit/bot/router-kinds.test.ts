// The router hands a control's interaction only to a handler that takes its kind. The local Discord refuses to
// send a mismatched one (it checks the control exists), so this drives route() with a minimal interaction.
import type { Interaction } from 'discord.js';
import { describe, expect, it } from 'vitest';
import type { BotContext } from '../../../src/bot/context.js';
import type { OwnerLookup } from '../../../src/bot/discord/component-guard.js';
import { buttonRoute, type ComponentRoute, modalRoute } from '../../../src/bot/discord/component-handler.js';
import { encodeCustomId } from '../../../src/bot/discord/custom-id.js';
import { route, WRONG_KIND } from '../../../src/bot/discord/router.js';

const silent = { debug() {}, info() {}, warn() {}, error() {}, redact: (s: string) => s };
// Every slip control here belongs to the DM-less test interaction's place (no server), so the guard lets it through.
const owners: Record<string, OwnerLookup> = { slip: async () => ({ guildId: null }) };
const ctx = { logger: { ...silent, child: () => silent } } as unknown as BotContext;

/** A button click on a control whose custom id is `customId`; records the ephemeral answers it gets. */
function buttonClick(customId: string) {
  const replies: string[] = [];
  const interaction = {
    id: 'i1',
    type: 3,
    user: { id: 'u1' },
    customId,
    deferred: false,
    replied: false,
    isAutocomplete: () => false,
    isCommand: () => false,
    isChatInputCommand: () => false,
    isButton: () => true,
    isStringSelectMenu: () => false,
    isModalSubmit: () => false,
    isMessageComponent: () => true,
    isRepliable: () => true,
    reply: async (body: { embeds: Array<{ description?: string }> }) => {
      replies.push(body.embeds[0]?.description ?? '');
    },
  };
  return { interaction: interaction as unknown as Interaction, replies };
}

describe('route() for controls', () => {
  it('answers a button sent to a modal handler with an ephemeral "does not take that kind", and runs nothing', async () => {
    let ran = false;
    const components: Record<string, ComponentRoute> = {
      'slip:stake': modalRoute(async () => {
        ran = true;
      }),
    };
    const { interaction, replies } = buttonClick(encodeCustomId('slip', 'stake', 'abc'));
    await route(interaction, new Map(), components, owners, ctx);
    expect(ran).toBe(false);
    expect(replies).toEqual([WRONG_KIND]);
  });

  it('hands a button to a button handler with the custom id arguments', async () => {
    const got: string[][] = [];
    const components: Record<string, ComponentRoute> = {
      'slip:confirm': buttonRoute(async (_i, args) => {
        got.push(args);
      }),
    };
    const { interaction, replies } = buttonClick(encodeCustomId('slip', 'confirm', 'abc'));
    await route(interaction, new Map(), components, owners, ctx);
    expect(got).toEqual([['abc']]);
    expect(replies).toEqual([]);
  });
});
