// Running the dashboard's server actions against a test server, through the very action client the app uses:
// a fixed session for one demo user, the API reached as that user (user mode) or as the demo bot (bot mode),
// and the audit history entries collected in memory instead of Prisma.
import { GuildApiClient } from "@/lib/api-client";
import { currentRequestId } from "@/lib/server/request-id";
import {
  createGuildAction,
  type ActionDependencies,
  type GuildActionDefinition,
} from "@/lib/dashboard/actions/action-client";
import type { AuditRecorder, NewAuditEntry } from "@/lib/dashboard/audit/history";
import type { DashboardSession } from "@/lib/dashboard/auth/session";
import type { GuildViewer } from "@/lib/dashboard/data/viewer";
import type { DemoWorldIds, TestServer } from "../harness";

export type DemoUser = keyof DemoWorldIds["users"];

/** The API as a demo user (Bearer) or as the demo bot. */
export async function apiClientAs(
  server: TestServer,
  who: DemoUser | "bot",
  fetchImpl?: typeof fetch,
): Promise<GuildApiClient> {
  return new GuildApiClient({
    // As the app's clients do (lib/dashboard/data/api.ts): the current request's id goes along.
    requestId: currentRequestId,
    baseUrl: `${server.baseUrl}/api`,
    token: who === "bot" ? server.botToken : await server.tokenFor(who),
    authPrefix: who === "bot" ? "Bot" : "Bearer",
    fetch: fetchImpl,
  });
}

/**
 * The action `definition` as `who` (named "Mod", "Helper", …) would run it in `mode`. Entries go to `audit`
 * (a fresh list unless one is passed in) and also to `record` when given (the real history in Prisma: recordAuditEntry);
 * `fetch` replaces the client's transport (to fake failures).
 */
export function actionAs<S extends Parameters<typeof createGuildAction>[0]["schema"], R>(
  server: TestServer,
  who: DemoUser,
  mode: "bot" | "user",
  definition: GuildActionDefinition<S, R>,
  options: { fetch?: typeof fetch; audit?: NewAuditEntry[]; record?: AuditRecorder } = {},
) {
  const audit = options.audit ?? [];
  const actor = { id: server.world.users[who], name: who[0].toUpperCase() + who.slice(1), image: null };
  const deps: ActionDependencies = {
    getSession: async () => ({ actor }),
    mode: () => mode,
    createApi: async () => await apiClientAs(server, mode === "bot" ? "bot" : who, options.fetch),
    record: async (entry) => {
      audit.push(entry);
      await options.record?.(entry);
    },
  };
  return { run: createGuildAction(definition, deps), audit, actor };
}

/**
 * A dashboard session of a seeded user holding a fresh OAuth2 access token of their own, shaped as the app's session
 * lookup returns it: what the dashboard's reads (viewer, live stream) take.
 */
export async function dashboardSessionOf(server: TestServer, who: DemoUser): Promise<DashboardSession> {
  const userId = server.world.users[who];
  return {
    sessionToken: crypto.randomUUID(),
    userId: `dashboard-${who}`,
    actor: { id: userId, name: who, image: null },
    account: {
      id: `account-${who}-${crypto.randomUUID()}`,
      providerAccountId: userId,
      access_token: await server.tokenFor(who),
      refresh_token: null,
      expires_at: null,
    },
  };
}

/** The dashboard in `mode` from now on (the config is read per call), and `who`'s view of the demo guild in it. */
export async function guildViewerOf(server: TestServer, who: DemoUser, mode: "user" | "bot"): Promise<GuildViewer> {
  process.env.GUILD_API_AUTH = mode;
  const { readGuildViewer } = await import("@/lib/dashboard/data/viewer");
  return readGuildViewer(await dashboardSessionOf(server, who), server.world.guildId);
}
