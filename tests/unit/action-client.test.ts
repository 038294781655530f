// The action client: session → API client, zod validation, bot-mode permission checks with the shared engine and
// the stamped reason, the call, before/after snapshots, one audit history entry per attempt, typed results.
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { GuildApiError, RateLimitError, type GuildApiClient } from "@/lib/api-client";
import { ActionRefusal, createGuildAction, type ActionDependencies } from "@/lib/dashboard/actions/action-client";
import { auditReason } from "@/lib/dashboard/actions/audit-reason";
import type { NewAuditEntry } from "@/lib/dashboard/audit/history";

const actor = { id: "42", name: "Mod Max", image: null };
const GUILD = "1000";
const BOT_USER = "99";

const Schema = z.object({
  guildId: z.string().regex(/^\d+$/),
  reason: z.string().max(512).optional(),
  name: z.string().min(2, "Too short."),
});

function setup(overrides: Partial<ActionDependencies> & { api?: Partial<Record<string, unknown>> } = {}) {
  const audit: NewAuditEntry[] = [];
  const revalidated: string[] = [];
  const edit = vi.fn(async (_guildId: string, body: { name: string }, _options: { reason?: string }) => ({
    id: GUILD,
    name: body.name,
  }));
  const api = {
    guilds: {
      edit,
      get: vi.fn(async () => ({
        id: GUILD,
        name: "Old name",
        owner_id: "1",
        features: [],
        roles: [
          { id: GUILD, position: 0, permissions: String(P.ViewChannel), name: "@everyone" },
          { id: "7", position: 1, permissions: String(P.KickMembers), name: "Helper" },
          { id: "8", position: 2, permissions: String(P.Administrator), name: "Bot" },
        ],
      })),
    },
    // In bot mode the bot's own member is read too (its rank bounds the moderator's): it holds the top role.
    users: { getCurrentId: async () => BOT_USER },
    members: {
      get: vi.fn(async (_guildId: string, userId: string) => ({
        roles: [userId === BOT_USER ? "8" : "7"],
        communication_disabled_until: null,
        user: { id: userId },
      })),
    },
    ...overrides.api,
  } as unknown as GuildApiClient;
  const deps: ActionDependencies = {
    getSession: async () => ({ actor }),
    mode: () => "user",
    createApi: async () => api,
    record: async (entry) => {
      audit.push(entry);
    },
    revalidate: (guildId) => revalidated.push(guildId),
    ...overrides,
  };
  const rename = createGuildAction(
    {
      action: "Modify Guild",
      schema: Schema,
      target: (input, { before }) => ({
        type: "guild",
        id: input.guildId,
        name: (before as { name: string } | undefined)?.name ?? null,
      }),
      authorize: (check) => check.missing(P.ManageGuild),
      before: async (ctx) => ({ name: (await ctx.api.guilds.get(ctx.guildId)).name }),
      run: (ctx) => ctx.api.guilds.edit(ctx.guildId, { name: ctx.input.name }, { reason: ctx.reason }),
      after: (guild) => ({ name: guild.name }),
      message: (guild) => `Renamed to ${guild.name}.`,
    },
    deps,
  );
  return { rename, audit, revalidated, edit, api };
}

describe("action client", () => {
  it("runs the call with the moderator's reason and records before/after, target, request and status", async () => {
    const { rename, audit, revalidated, edit } = setup();
    const result = await rename({ guildId: GUILD, name: "New name", reason: "  rebrand  " });
    expect(result).toEqual({ ok: true, data: { id: GUILD, name: "New name" }, message: "Renamed to New name." });
    expect(edit).toHaveBeenCalledWith(GUILD, { name: "New name" }, { reason: "rebrand" });
    expect(audit).toEqual([
      {
        guildId: GUILD,
        actor,
        action: "Modify Guild",
        target: { type: "guild", id: GUILD, name: "Old name" },
        reason: "rebrand",
        request: { name: "New name" },
        status: "success",
        before: { name: "Old name" },
        after: { name: "New name" },
        httpStatus: 200,
      },
    ]);
    expect(revalidated).toEqual([GUILD]);
  });

  it("refuses without a session, before validating or calling anything", async () => {
    const { rename, audit, edit } = setup({ getSession: async () => null });
    const result = await rename({ guildId: GUILD, name: "x" });
    expect(result).toMatchObject({ ok: false, status: 401 });
    expect(edit).not.toHaveBeenCalled();
    expect(audit).toHaveLength(0);
  });

  it("returns zod field errors by path and changes nothing", async () => {
    const { rename, audit, edit } = setup();
    const result = await rename({ guildId: GUILD, name: "x" });
    expect(result).toEqual({
      ok: false,
      error: "Some fields need your attention.",
      fieldErrors: { name: ["Too short."] },
      status: 400,
    });
    expect(edit).not.toHaveBeenCalled();
    expect(audit).toHaveLength(0);
  });

  it("turns the API's field errors into form field errors and records the failure", async () => {
    const { rename, audit, revalidated } = setup({
      api: {
        guilds: {
          get: async () => ({ name: "Old name" }),
          edit: async () => {
            throw new GuildApiError(
              400,
              {
                code: 50035,
                message: "Invalid Form Body",
                errors: {
                  name: {
                    _errors: [{ code: "BASE_TYPE_BAD_LENGTH", message: "Must be between 2 and 100 in length." }],
                  },
                },
              },
              { method: "PATCH", path: "/guilds/1000" },
            );
          },
        },
      },
    });
    const result = await rename({ guildId: GUILD, name: "Valid here" });
    expect(result).toMatchObject({
      ok: false,
      status: 400,
      code: 50035,
      fieldErrors: { name: ["Must be between 2 and 100 in length."] },
    });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      status: "error",
      httpStatus: 400,
      before: { name: "Old name" },
      error: "Invalid Form Body: name: Must be between 2 and 100 in length.",
    });
    expect(audit[0].after).toBeUndefined();
    expect(revalidated).toEqual([]);
  });

  it("surfaces a rate limit with the wait, without retrying", async () => {
    const edit = vi.fn(async () => {
      throw new RateLimitError({ message: "slow", retry_after: 4.2, global: false }, 4.2, false, {
        method: "PATCH",
        path: "/guilds/1000",
      });
    });
    const { rename, audit } = setup({ api: { guilds: { get: async () => ({ name: "a" }), edit } } });
    const result = await rename({ guildId: GUILD, name: "New name" });
    expect(result).toMatchObject({
      ok: false,
      status: 429,
      retryAfter: 4.2,
      error: "Rate limited: waiting 5 s before this can be tried again.",
    });
    expect(edit).toHaveBeenCalledTimes(1);
    expect(audit[0]).toMatchObject({ status: "error", httpStatus: 429 });
  });

  it("records and rethrows unexpected errors", async () => {
    const { rename, audit } = setup({
      api: {
        guilds: {
          get: async () => ({ name: "a" }),
          edit: async () => {
            throw new TypeError("boom");
          },
        },
      },
    });
    await expect(rename({ guildId: GUILD, name: "New name" })).rejects.toThrow("boom");
    expect(audit[0]).toMatchObject({ status: "error", error: "boom" });
  });

  it("does not consult the moderator's permissions in user mode (the API judges their token)", async () => {
    const { rename, api } = setup();
    await rename({ guildId: GUILD, name: "New name" });
    expect(api.members.get).not.toHaveBeenCalled();
  });

  it("records a refused call only when the API shows the caller to be a member of the guild", async () => {
    const missingAccess = (path: string) =>
      new GuildApiError(403, { code: 50001, message: "Missing Access" }, { method: "GET", path });
    const membersGet = vi.fn(async () => {
      throw missingAccess(`/guilds/${GUILD}/members/${actor.id}`);
    });
    const { rename, audit } = setup({
      api: {
        guilds: {
          get: async () => ({ name: "a" }),
          edit: async () => {
            throw missingAccess(`/guilds/${GUILD}`);
          },
        },
        members: { get: membersGet },
      },
    });
    const result = await rename({ guildId: GUILD, name: "New name" });
    expect(result).toMatchObject({ ok: false, status: 403, code: 50001 });
    expect(membersGet).toHaveBeenCalledWith(GUILD, actor.id);
    expect(audit).toEqual([]);
  });

  it("stops before the call, recording nothing for a stranger, when the before snapshot refuses", async () => {
    const audit: NewAuditEntry[] = [];
    const run = vi.fn(async () => "changed");
    const action = createGuildAction(
      {
        action: "Modify Channel",
        schema: Schema,
        authorize: () => null,
        before: async () => {
          throw new ActionRefusal("That channel is not in this server.", {}, 404);
        },
        run,
      },
      {
        getSession: async () => ({ actor }),
        mode: () => "user",
        createApi: async () =>
          ({
            members: {
              get: async () => {
                throw new GuildApiError(404, { code: 10004, message: "Unknown Guild" }, { method: "GET", path: "/" });
              },
            },
          }) as unknown as GuildApiClient,
        record: async (entry) => {
          audit.push(entry);
        },
      },
    );
    expect(await action({ guildId: GUILD, name: "New name" })).toEqual({
      ok: false,
      error: "That channel is not in this server.",
      fieldErrors: {},
      status: 404,
    });
    expect(run).not.toHaveBeenCalled();
    expect(audit).toEqual([]);
  });
});

describe("bot mode", () => {
  it("checks the moderator's own permissions with the shared engine and refuses before calling", async () => {
    const { rename, audit, edit } = setup({ mode: () => "bot" });
    const result = await rename({ guildId: GUILD, name: "New name", reason: "because" });
    // The moderator holds only Helper (Kick Members): Manage Server is missing.
    expect(result).toEqual({
      ok: false,
      error: "You can't do this: needs Manage Server.",
      fieldErrors: {},
      status: 403,
    });
    expect(edit).not.toHaveBeenCalled();
    expect(audit).toEqual([
      expect.objectContaining({
        status: "error",
        httpStatus: 403,
        error: "Refused by the dashboard: needs Manage Server",
        reason: "because",
      }),
    ]);
  });

  it("stamps 'name (id): reason' into the audit-log reason when allowed", async () => {
    const { rename, edit, api } = setup({ mode: () => "bot" });
    (api.members.get as ReturnType<typeof vi.fn>).mockResolvedValue({ roles: [], communication_disabled_until: null });
    (api.guilds.get as ReturnType<typeof vi.fn>).mockResolvedValue({
      id: GUILD,
      name: "Old",
      owner_id: actor.id,
      features: [],
      roles: [{ id: GUILD, position: 0, permissions: "0" }],
    });
    const result = await rename({ guildId: GUILD, name: "New name", reason: "rebrand" });
    expect(result.ok).toBe(true);
    expect(edit).toHaveBeenCalledWith(GUILD, { name: "New name" }, { reason: "Mod Max (42): rebrand" });
  });
});

describe("auditReason", () => {
  it("trims, stamps in bot mode and caps at 512 characters", () => {
    expect(auditReason("  x ", actor, "user")).toBe("x");
    expect(auditReason("", actor, "user")).toBeUndefined();
    expect(auditReason(undefined, actor, "bot")).toBe("Mod Max (42)");
    expect(auditReason("y".repeat(600), actor, "bot")).toHaveLength(512);
  });
});
