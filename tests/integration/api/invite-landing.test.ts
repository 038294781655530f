// The invite landing page's read (/invite/{code}): an open invite with its counts, a vanity code, and why there is no
// usable invite (unknown 404, expired 410, used up 410), and a guild whose invites are paused (403, page kept).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../harness";
import { sql } from "@/lib/guild-api/store/db";

let server: TestServer;
let landing: typeof import("@/lib/guild-api/services/invite-landing");

beforeAll(async () => {
  server = await startTestServer();
  landing = await import("@/lib/guild-api/services/invite-landing");
});
afterAll(() => server?.close());

const statusOf = (kind: keyof typeof landing.INVITE_LANDING_STATUS) => landing.INVITE_LANDING_STATUS[kind];

async function insertInvite(code: string, fields: { expiresAt?: number | null; maxUses?: number; uses?: number }) {
  await sql.run(
    `INSERT INTO invites (code, guild_id, channel_id, max_age, max_uses, uses, created_at, expires_at)
       VALUES (?, ?, ?, 0, ?, ?, ?, ?)`,
    code,
    BigInt(server.world.guildId),
    BigInt(server.world.channels.general),
    fields.maxUses ?? 0,
    fields.uses ?? 0,
    Date.now() - 60_000,
    fields.expiresAt ?? null,
  );
}

describe("invite landing", () => {
  it("an open invite: the guild with counts, and whether the signed-in person is a member", async () => {
    await insertInvite("landopen1", {});
    const open = await landing.inviteLanding("landopen1", BigInt(server.world.users.outsider));
    expect(open).toMatchObject({ kind: "open", member: false, pending: false, screening: false });
    if (open.kind !== "open") return;
    expect(open.invite.guild?.id).toBe(server.world.guildId);
    expect(open.invite.approximate_member_count).toBeGreaterThan(0);
    expect(await landing.inviteLanding("landopen1", BigInt(server.world.users.mod))).toMatchObject({ member: true });
    expect(statusOf(open.kind)).toBe(200);
    // The vanity code reads as a permanent invite of the guild.
    expect(await landing.inviteLanding("guildhall")).toMatchObject({ kind: "open", invite: { code: "guildhall" } });
  });

  it("unknown, expired and used-up invites say which, answered 404, 410 and 410", async () => {
    await insertInvite("landold1", { expiresAt: Date.now() - 1000 });
    await insertInvite("landused1", { maxUses: 2, uses: 2 });
    expect(await landing.inviteLanding("nosuchcode")).toEqual({ kind: "unknown" });
    expect(await landing.inviteLanding("landold1")).toMatchObject({ kind: "expired" });
    expect(await landing.inviteLanding("landused1")).toEqual({ kind: "used-up", maxUses: 2 });
    expect([statusOf("unknown"), statusOf("expired"), statusOf("used-up")]).toEqual([404, 410, 410]);
  });

  it("a paused guild keeps its page but refuses joins (403); membership screening is reported", async () => {
    await insertInvite("landpause1", {});
    const guild = BigInt(server.world.guildId);
    const features = ((await sql.get("SELECT features FROM guilds WHERE id = ?", guild)) as { features: string })
      .features;
    await sql.run(
      "UPDATE guilds SET features = ? WHERE id = ?",
      JSON.stringify([...JSON.parse(features), "INVITES_DISABLED", "MEMBER_VERIFICATION_GATE_ENABLED"]),
      guild,
    );
    try {
      const paused = await landing.inviteLanding("landpause1");
      expect(paused).toMatchObject({ kind: "paused", screening: true });
      expect(statusOf("paused")).toBe(403);
    } finally {
      await sql.run("UPDATE guilds SET features = ? WHERE id = ?", features, guild);
    }
    expect(await landing.inviteLanding("landpause1")).toMatchObject({ kind: "open", screening: false });
  });
});
