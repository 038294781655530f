"use server";

// Server actions of the channels page.
import { type RESTPostAPIGuildChannelJSONBody } from "discord-api-types/v10";
import { guildAction } from "./guild-action";
import { firstRefusal } from "./moderator";
import { ChannelPositionsInputSchema, CreateChannelInputSchema, channelCreateBody } from "./schemas/channels";

/** POST /guilds/{guild.id}/channels: Create Guild Channel, with only the fields its type takes. */
export const createGuildChannelAction = guildAction({
  action: "Create Guild Channel",
  schema: CreateChannelInputSchema,
  // The channel the API made (the name asked for is in the request).
  target: (_input, { result }) => {
    const channel = result as { id?: string; name?: string } | undefined;
    return { type: "channel", id: channel?.id ?? null, name: channel?.name ?? null };
  },
  // A private channel carries its overwrites from the start: only bits the moderator holds may be set in them.
  authorize: (check, input) => {
    const overwrites = channelCreateBody(input, input.guildId).permission_overwrites as
      Array<{ allow: string; deny: string }> | undefined;
    return firstRefusal(check.may("Create Guild Channel"), check.newOverwritesBlock(overwrites ?? []));
  },
  request: (input) => channelCreateBody(input, input.guildId),
  run: ({ api, guildId, input, reason }) =>
    api.channels.create(guildId, channelCreateBody(input, guildId) as unknown as RESTPostAPIGuildChannelJSONBody, {
      reason,
    }),
  after: (channel) => {
    const c = channel as unknown as LaidOutChannel & { type: number };
    return { id: c.id, name: c.name, type: c.type, parent_id: c.parent_id ?? null, position: c.position };
  },
  message: (channel) => `Created ${(channel as unknown as LaidOutChannel).name}.`,
});

interface LaidOutChannel {
  id: string;
  name: string;
  position: number;
  parent_id?: string | null;
}

type Layout = Record<string, { name: string; position: number; parent_id: string | null }>;

function layoutOf(channels: readonly LaidOutChannel[], ids: readonly string[]): Layout {
  const wanted = new Set(ids);
  const out: Layout = {};
  for (const c of channels)
    if (wanted.has(c.id)) out[c.id] = { name: c.name, position: c.position, parent_id: c.parent_id ?? null };
  return out;
}

/** PATCH /guilds/{guild.id}/channels: Modify Guild Channel Positions, a whole drag-and-drop in one request. */
export const modifyGuildChannelPositionsAction = guildAction({
  action: "Modify Guild Channel Positions",
  schema: ChannelPositionsInputSchema,
  target: (input, { before }) => {
    const layout = (before ?? {}) as Layout;
    const names = input.positions.map((p) => layout[p.id]?.name ?? p.id);
    return {
      type: "channels",
      id: input.positions.length === 1 ? input.positions[0].id : null,
      name: names.length <= 3 ? names.join(", ") : `${names.length} channels`,
    };
  },
  authorize: (check) => check.may("Modify Guild Channel Positions"),
  request: (input) => input.positions,
  before: async ({ api, guildId, input }) =>
    layoutOf(
      (await api.channels.list(guildId)) as unknown as LaidOutChannel[],
      input.positions.map((p) => p.id),
    ),
  run: async ({ api, guildId, input, reason }) => {
    await api.channels.setPositions(guildId, input.positions, { reason });
    return layoutOf(
      (await api.channels.list(guildId)) as unknown as LaidOutChannel[],
      input.positions.map((p) => p.id),
    );
  },
  after: (layout) => layout,
  message: (_layout, input) =>
    `Saved the new order (${input.positions.length} channel${input.positions.length === 1 ? "" : "s"} changed).`,
});
