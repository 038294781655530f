// Finding 3 of the security issue (#29): the dashboard's live stream (GET /guilds/{id}/live) told every viewer who
// acted and which sections changed. `member` (no View Audit Log, no Ban Members) opened it and received
// `actors: [{id, name: "Mod"}]` for a ban and for an unban, while the overview says "Needs View Audit Log" and the API
// answers 403 for bans. A viewer now receives a change only for the sections of the dashboard they may see (the policy
// table the sidebar and the pages read), and its actors only with View Audit Log.
//
// The streams here are the route's own (streamGuildChanges) fed by the process's live hub, whose gateway connection
// identifies with the demo bot against this file's server; each viewer reads the API with their own token.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { testServerForFile } from "../integration/harness";
import { dashboardSessionOf } from "../integration/dashboard/harness";

const server = testServerForFile();

type Viewer = "member" | "helper" | "mod";

interface StreamEvent {
  event: string;
  data: unknown;
}

interface ChangeEvent {
  sections: readonly string[] | "all";
  actors: Array<{ id: string; name: string }>;
}

/** One viewer's open stream: every event it sent, and a wait for the next one matching. */
class OpenStream {
  readonly events: StreamEvent[] = [];
  private readIndex = 0;
  private wake: (() => void) | null = null;
  private readonly abort = new AbortController();

  constructor(response: Response) {
    void this.read(response);
  }

  private async read(response: Response) {
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
      if (done) return;
      buffer += value;
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event) this.events.push({ event, data: data === undefined ? undefined : JSON.parse(data) });
        this.wake?.();
      }
    }
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  close(): void {
    this.abort.abort();
  }

  /** The next event (after those taken) for which `match` holds; events skipped on the way are taken. */
  async next(match: (event: StreamEvent) => boolean, timeoutMs = 5_000): Promise<StreamEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.readIndex < this.events.length) {
        const event = this.events[this.readIndex++];
        if (match(event)) return event;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching stream event within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /** Waits until an event matching `match` has come, taking nothing. */
  async heard(match: (event: StreamEvent) => boolean, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.events.some(match)) {
      if (Date.now() > deadline) throw new Error(`no matching stream event within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** The changes sent up to and including the first whose sections are "all" (the rename that closes a step). */
  async changesUntilAll(): Promise<ChangeEvent[]> {
    const changes: ChangeEvent[] = [];
    for (;;) {
      const change = (await this.next((e) => e.event === "change")).data as ChangeEvent;
      changes.push(change);
      if (change.sections === "all") return changes;
    }
  }
}

const streams: OpenStream[] = [];
let stopHub: () => void = () => {};

/** The stream the route answers for `viewer`, once it says the guild is live. */
async function openStream(viewer: Viewer): Promise<OpenStream> {
  const { streamGuildChanges } = await import("@/lib/dashboard/live/stream");
  const session = await dashboardSessionOf(server, viewer);
  const controller = new AbortController();
  const response = streamGuildChanges(session, server.world.guildId, controller.signal);
  expect(response.status).toBe(200);
  const stream = new OpenStream(response);
  stream.signal.addEventListener("abort", () => controller.abort());
  streams.push(stream);
  await stream.next((e) => e.event === "state" && (e.data as { state: string }).state === "live", 10_000);
  return stream;
}

/** A seeded member of HQ with no role, to be banned. */
async function plainMember(): Promise<string> {
  const { sql } = await import("@/lib/guild-api/store/db");
  return String(
    await sql.value(
      "SELECT m.user_id FROM members m JOIN users u ON u.id = m.user_id WHERE m.guild_id = ? AND m.role_count = 0 AND u.bot = FALSE AND u.username NOT IN ('owner', 'member') ORDER BY u.id LIMIT 1",
      BigInt(server.world.guildId),
    ),
  );
}

/**
 * Runs `action`, then renames a role (a change every viewer may see: sections "all") to close the step. The rename
 * waits until `mod` (who sees every section) has received the action's change: the hub merges dispatches that come
 * close together, and the rename must be a change of its own.
 */
async function step(mod: OpenStream, action: () => Promise<Response>, rename: string): Promise<void> {
  const changes = () => mod.events.filter((e) => e.event === "change").length;
  const before = changes();
  expect((await action()).status).toBe(204);
  await mod.heard(() => changes() > before);
  const path = `/guilds/${server.world.guildId}/roles/${server.world.roles.member}`;
  expect((await server.api("admin", "PATCH", path, { name: rename })).status).toBe(200);
}

const sorted = (sections: ChangeEvent["sections"]) => (sections === "all" ? "all" : [...sections].sort());

beforeAll(async () => {
  // The dashboard reaches this file's server; its live connection identifies as the demo bot (the secrets beside
  // the database the harness copied).
  process.env.GUILD_API_URL = `${server.baseUrl}/api`;
  delete process.env.DASHBOARD_LIVE;
  const { liveHub } = await import("@/lib/dashboard/live/hub");
  stopHub = () => liveHub().stop();
});

afterAll(() => {
  for (const stream of streams) stream.close();
  stopHub();
});

describe("the live stream sends each viewer only the sections they may see, and actors only with View Audit Log", () => {
  test("a ban and an unban by Mod: member sees the overview change, unnamed; helper and mod what their sections show", async () => {
    const member = await openStream("member");
    const helper = await openStream("helper");
    const mod = await openStream("mod");
    const target = await plainMember();
    const byMod = [{ id: server.world.users.mod, name: "Mod" }];

    const bans = `/guilds/${server.world.guildId}/bans/${target}`;
    await step(mod, () => server.api("mod", "PUT", bans, {}), "Members (after the ban)");
    const [memberBan, helperBan, modBan] = await Promise.all([member, helper, mod].map((s) => s.changesUntilAll()));
    // The member count changed (the overview's numbers); bans, prune and who acted are not theirs to know.
    expect(memberBan).toEqual([
      { sections: ["overview"], actors: [] },
      { sections: "all", actors: [] },
    ]);
    // View Audit Log and Kick Members: the audit history, members and overview; not bans (no Ban Members) nor prune.
    expect(helperBan.map((c) => ({ ...c, sections: sorted(c.sections) }))).toEqual([
      { sections: ["audit-history", "members", "overview"], actors: byMod },
      { sections: "all", actors: [{ id: server.world.users.admin, name: "Admin" }] },
    ]);
    expect(modBan.map((c) => ({ ...c, sections: sorted(c.sections) }))[0]).toEqual({
      sections: ["audit-history", "bans", "members", "overview", "prune"],
      actors: byMod,
    });

    await step(mod, () => server.api("mod", "DELETE", bans), "Members (after the unban)");
    const [memberUnban, helperUnban, modUnban] = await Promise.all(
      [member, helper, mod].map((s) => s.changesUntilAll()),
    );
    // Nothing the member may see changed with the unban: only the rename reaches them.
    expect(memberUnban).toEqual([{ sections: "all", actors: [] }]);
    expect(sorted(helperUnban[0].sections)).not.toContain("bans");
    expect(helperUnban[0].actors).toEqual(byMod);
    expect(sorted(modUnban[0].sections)).toContain("bans");
    expect(modUnban[0].actors).toEqual(byMod);
  });

  test("what a viewer may see is read again when their roles change: member given Helper is told who acted, then not", async () => {
    const member = await openStream("member");
    const roles = `/guilds/${server.world.guildId}/members/${server.world.users.member}/roles/${server.world.roles.helper}`;
    const byAdmin = [{ id: server.world.users.admin, name: "Admin" }];
    const nextChange = async () => (await member.next((e) => e.event === "change")).data as ChangeEvent;

    expect((await server.api("admin", "PUT", roles)).status).toBe(204);
    const promoted = await nextChange();
    expect(sorted(promoted.sections)).toEqual(["audit-history", "members", "overview"]);
    expect(promoted.actors).toEqual(byAdmin);

    expect((await server.api("admin", "DELETE", roles)).status).toBe(204);
    expect(await nextChange()).toEqual({ sections: ["overview"], actors: [] });
  });
});
