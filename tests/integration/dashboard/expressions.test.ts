// The Emoji, Stickers and Soundboard pages' actions against the built-in API, through the action client the app
// uses: uploads travel as data URIs and reach the API as Discord takes them (a sticker as a multipart file), the
// history keeps the names and never the files, and bot mode refuses a moderator without Create or Manage
// Expressions before the API is called.
import { describe, expect, it } from "vitest";
import type { GuildActionDefinition } from "@/lib/dashboard/actions/action-client";
import {
  createGuildEmojiAction,
  createGuildSoundboardSoundAction,
  createGuildStickerAction,
  deleteGuildEmojiAction,
  deleteGuildSoundboardSoundAction,
  deleteGuildStickerAction,
  modifyGuildEmojiAction,
} from "@/lib/dashboard/actions/expressions";
import { dataUri, silentMp3, solidPng } from "@/lib/seed/media";
import { testServerForFile } from "../harness";
import { actionAs, type DemoUser } from "./harness";

const server = testServerForFile({ rateLimits: { enabled: false } });
const guildId = () => server.world.guildId;

const as = <S extends Parameters<typeof actionAs>[3]["schema"], R>(
  who: DemoUser,
  mode: "bot" | "user",
  definition: GuildActionDefinition<S, R>,
) => actionAs(server, who, mode, definition);

const read = async <T>(path: string) => (await (await server.api("bot", "GET", path)).json()) as T;

describe.each(["user", "bot"] as const)("%s mode", (mode) => {
  it("an emoji uploaded, renamed and deleted; the history names it and holds no file", async () => {
    const create = as("mod", mode, createGuildEmojiAction.definition);
    const made = await create.run({
      guildId: guildId(),
      name: `dash_${mode}`,
      image: dataUri("image/png", solidPng(64, 64)),
    });
    expect(made).toMatchObject({ ok: true, message: `Uploaded :dash_${mode}:.` });
    const emoji = (made as { data: { id: string } }).data;
    expect(create.audit[0]).toMatchObject({
      action: "Create Guild Emoji",
      target: { type: "emoji", id: emoji.id, name: `dash_${mode}` },
      request: { name: `dash_${mode}` },
      status: "success",
    });
    expect(JSON.stringify(create.audit[0])).not.toContain("base64");

    const rename = as("mod", mode, modifyGuildEmojiAction.definition);
    expect(await rename.run({ guildId: guildId(), emojiId: emoji.id, name: `dash_${mode}_2` })).toMatchObject({
      ok: true,
    });
    expect(rename.audit[0]).toMatchObject({ before: { name: `dash_${mode}` }, after: { name: `dash_${mode}_2` } });

    expect(
      await as("mod", mode, deleteGuildEmojiAction.definition).run({ guildId: guildId(), emojiId: emoji.id, name: "" }),
    ).toMatchObject({
      ok: true,
      message: `Deleted :dash_${mode}_2:.`,
    });
    expect((await server.api("bot", "GET", `/guilds/${guildId()}/emojis/${emoji.id}`)).status).toBe(404);
  });

  it("a sticker goes to the API as a multipart file; a sound as a data URI", async () => {
    const sticker = await as("mod", mode, createGuildStickerAction.definition).run({
      guildId: guildId(),
      name: `Dash ${mode}`,
      tags: "wave",
      description: "",
      file: dataUri("image/png", solidPng(320, 320)),
      fileName: "dash.png",
    });
    expect(sticker).toMatchObject({ ok: true });
    const stickerId = (sticker as { data: { id: string } }).data.id;
    expect(await read(`/guilds/${guildId()}/stickers/${stickerId}`)).toMatchObject({
      name: `Dash ${mode}`,
      description: null,
      format_type: 1,
    });
    const refused = await as("mod", mode, createGuildStickerAction.definition).run({
      guildId: guildId(),
      name: "Dash small",
      tags: "x",
      description: "",
      file: dataUri("image/png", solidPng(64, 64)),
      fileName: "small.png",
    });
    expect(refused).toMatchObject({ ok: false, status: 400 });

    const sound = await as("mod", mode, createGuildSoundboardSoundAction.definition).run({
      guildId: guildId(),
      name: `dash ${mode}`,
      volume: 0.5,
      emoji_name: "",
      sound: dataUri("audio/mpeg", silentMp3(30)),
    });
    expect(sound).toMatchObject({ ok: true });
    const soundId = (sound as { data: { sound_id: string } }).data.sound_id;
    expect(await read(`/guilds/${guildId()}/soundboard-sounds/${soundId}`)).toMatchObject({
      volume: 0.5,
      emoji_name: null,
    });

    expect(
      await as("mod", mode, deleteGuildStickerAction.definition).run({ guildId: guildId(), stickerId, name: "" }),
    ).toMatchObject({ ok: true });
    expect(
      await as("mod", mode, deleteGuildSoundboardSoundAction.definition).run({ guildId: guildId(), soundId, name: "" }),
    ).toMatchObject({ ok: true });
  });
});

describe("bot mode", () => {
  it("refuses an upload for a helper without Create or Manage Expressions, before the API is called", async () => {
    const { run, audit } = as("helper", "bot", createGuildEmojiAction.definition);
    const result = await run({
      guildId: guildId(),
      name: "dash_helper",
      image: dataUri("image/png", solidPng(16, 16)),
    });
    expect(result).toMatchObject({ ok: false, status: 403 });
    expect((result as { error: string }).error).toMatch(/Create Expressions|Manage Expressions/);
    expect(audit[0]).toMatchObject({ action: "Create Guild Emoji", status: "error", httpStatus: 403 });
    const names = (await read<Array<{ name: string }>>(`/guilds/${guildId()}/emojis`)).map((emoji) => emoji.name);
    expect(names).not.toContain("dash_helper");
  });

  it("lets a helper with Create Expressions only upload, not rename or delete: whose upload it was can't be told", async () => {
    const role = (await server.rest("owner").post(`/guilds/${guildId()}/roles`, {
      body: { name: "Emoji makers", permissions: String(1n << 43n) },
    })) as { id: string };
    await server.rest("owner").put(`/guilds/${guildId()}/members/${server.world.users.helper}/roles/${role.id}`);
    try {
      const made = await as("helper", "bot", createGuildEmojiAction.definition).run({
        guildId: guildId(),
        name: "dash_maker",
        image: dataUri("image/png", solidPng(16, 16)),
      });
      expect(made).toMatchObject({ ok: true });
      const emoji = (made as { data: { id: string } }).data;
      const rename = await as("helper", "bot", modifyGuildEmojiAction.definition).run({
        guildId: guildId(),
        emojiId: emoji.id,
        name: "dash_maker_2",
      });
      expect(rename).toMatchObject({ ok: false, status: 403 });
      expect((rename as { error: string }).error).toMatch(/Manage Expressions/);
      const remove = await as("helper", "bot", deleteGuildEmojiAction.definition).run({
        guildId: guildId(),
        emojiId: emoji.id,
        name: "",
      });
      expect(remove).toMatchObject({ ok: false, status: 403 });
      expect((await server.api("bot", "GET", `/guilds/${guildId()}/emojis/${emoji.id}`)).status).toBe(200);
      await as("mod", "bot", deleteGuildEmojiAction.definition).run({
        guildId: guildId(),
        emojiId: emoji.id,
        name: "",
      });
    } finally {
      await server.rest("owner").delete(`/guilds/${guildId()}/roles/${role.id}`);
    }
  });
});
