// Every door has a rule (STYLE.md, habit 12), for the app's own doors: every page and route handler under app/, every
// door the one-port server answers before Next, every server action of the provider's pages, and every dashboard
// action has an entry in the policy table (lib/discord/policies.ts), and a page or route whose rule names a section or
// an operation asks for that one; a dashboard action on the moderator's own rows reads their session. The API's routes
// are checked against POLICIES in policies.test.ts; the gateway's dispatches and the guild's sections in
// dispatch-policies.test.ts.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { code, filesUnder, read, root } from "./source-text";
import {
  DASHBOARD_ACTION_POLICIES,
  DASHBOARD_SESSION_ACTION_POLICIES,
  POLICIES,
  PROVIDER_ACTION_POLICIES,
  ROUTE_POLICIES,
  operationOfDashboardAction,
  type DoorRule,
} from "@/lib/discord/policies";

/** app/(dashboard)/guilds/[guildId]/bans/page.tsx → /guilds/[guildId]/bans (route groups are not in the URL). */
const urlOf = (file: string) =>
  "/" +
  path
    .dirname(path.relative("app", file))
    .split(path.sep)
    .filter((segment) => segment !== "." && !/^\(.*\)$/.test(segment))
    .join("/");

const doors = filesUnder("app").filter((file) => /^(page\.tsx|route\.ts)$/.test(path.basename(file)));
const routes: Record<string, DoorRule> = ROUTE_POLICIES;

/** A file's code with that of the dashboard modules it imports (where a shared gate such as loadJobPage lives). */
function codeWithGates(file: string): string {
  const own = code(file);
  const imported = [...own.matchAll(/from "@\/(lib\/dashboard\/[^"]+)"/g)].flatMap(([, module]) =>
    [`${module}.ts`, `${module}.tsx`].filter((candidate) => fs.existsSync(path.join(root, candidate))).map(code),
  );
  return [own, ...imported].join("\n");
}

describe("every page and route handler has a rule in ROUTE_POLICIES", () => {
  test("the app's pages and route handlers are found", () => {
    expect(doors.length).toBeGreaterThan(40);
    expect(doors.map(urlOf)).toEqual(expect.arrayContaining(["/", "/guilds/[guildId]/bans", "/api/token"]));
  });

  test("each has an entry, and each entry a page or route handler", () => {
    const served = new Set(doors.map(urlOf));
    expect([...served].filter((url) => !Object.hasOwn(routes, url))).toEqual([]);
    expect(Object.keys(routes).filter((url) => !url.startsWith("server:") && !served.has(url))).toEqual([]);
  });

  test("the one-port server's own doors (before Next) each have an entry", () => {
    const server = code("lib/server/create-server.ts");
    const paths = [...server.matchAll(/path(?:\.startsWith\(|\s*===\s*)"(\/[a-z0-9]+)/g)].map((m) => m[1]);
    expect(paths).toEqual(expect.arrayContaining(["/healthz", "/cdn", "/api"]));
    for (const door of paths) {
      const key = door === "/api" ? "server:/api/v10" : `server:${door}`;
      expect(Object.keys(routes), door).toContain(key);
    }
  });

  test("a door whose rule is a section or an operation asks for that one", () => {
    for (const file of doors) {
      const rule = routes[urlOf(file)];
      const text = codeWithGates(file);
      if (rule.who === "section" && rule.section === "overview")
        expect(text, file).toMatch(/\bget(?:Guild|Section)Viewer\(/);
      else if (rule.who === "section") expect(text, file).toContain(`"${rule.section}"`);
      else if (rule.who === "operation") expect(text, file).toContain(`"${rule.operation}"`);
    }
  });

  test("pages under a guild answer to the guild's members only: none is open to anyone", () => {
    for (const [url, rule] of Object.entries(routes))
      if (url.startsWith("/guilds/[guildId]"))
        expect(["section", "operation", "dashboard-session"], url).toContain(rule.who);
  });
});

describe("every server action has a rule", () => {
  const serverModules = (dir: string) =>
    filesUnder(dir).filter((file) => /\.tsx?$/.test(file) && /^\s*["']use server["']/.test(read(file)));
  const exportsOf = (file: string) =>
    [...code(file).matchAll(/export (?:async function|const) (\w+)/g)].map((m) => m[1]);
  /** lib/dashboard/actions/table-preferences.ts's saveTableColumnsAction → table-preferences#saveTableColumnsAction */
  const dashboardActionKey = (file: string, name: string) =>
    `${path.relative("lib/dashboard/actions", file).replace(/\.tsx?$/, "")}#${name}`;
  const sessionActions: Record<string, DoorRule> = DASHBOARD_SESSION_ACTION_POLICIES;

  test("the provider's actions: each export of a 'use server' module under app/ has an entry, and each entry an export", () => {
    // A page's actions.ts by the page's path; a shared module (a private folder's) by its own path.
    const moduleKey = (file: string) =>
      path.basename(file) === "actions.ts" ? urlOf(file) : `${urlOf(file)}/${path.basename(file, ".ts")}`;
    const found = serverModules("app").flatMap((file) => exportsOf(file).map((name) => `${moduleKey(file)}#${name}`));
    expect(found.length).toBeGreaterThan(10);
    expect(found.filter((key) => !Object.hasOwn(PROVIDER_ACTION_POLICIES, key))).toEqual([]);
    expect(Object.keys(PROVIDER_ACTION_POLICIES).filter((key) => !found.includes(key))).toEqual([]);
  });

  test("the dashboard's actions: each is named after an operation of the table and carries its bot-mode guard", async () => {
    const modules = serverModules("lib/dashboard/actions");
    expect(modules.length).toBeGreaterThan(10);
    let actions = 0;
    for (const file of modules) {
      const exported = (await import(/* @vite-ignore */ path.join(root, file))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(exported)) {
        if (Object.hasOwn(sessionActions, dashboardActionKey(file, name))) continue; // the next test's
        const definition = (value as { definition?: { action: string; authorize?: unknown } }).definition;
        expect(definition, `${file}: ${name} is not made by guildAction`).toBeDefined();
        expect(operationOfDashboardAction(definition!.action), `${name}: "${definition!.action}"`).toBeDefined();
        expect(typeof definition!.authorize, `${name} has no bot-mode guard`).toBe("function");
        actions++;
      }
    }
    expect(actions).toBeGreaterThan(40);
  }, 30_000); // imports every action module (and what they import): seconds on a busy machine

  test("the dashboard's actions on the moderator's own rows: each entry an export that reads the session, no guild action", async () => {
    const modules = serverModules("lib/dashboard/actions");
    for (const key of Object.keys(sessionActions)) {
      const file = modules.find((candidate) =>
        exportsOf(candidate).some((name) => dashboardActionKey(candidate, name) === key),
      );
      expect(file, `${key} is not an export of a 'use server' module under lib/dashboard/actions`).toBeDefined();
      // Whose rows: the session's user, never an id the browser sends.
      expect(code(file!), key).toMatch(/\bgetDashboardSession\(\)/);
      const exported = (await import(/* @vite-ignore */ path.join(root, file!))) as Record<string, unknown>;
      const action = exported[key.slice(key.indexOf("#") + 1)] as { definition?: unknown };
      // A guild action is judged by its operation (the test above), not by a session rule.
      expect(action.definition, `${key} is made by guildAction`).toBeUndefined();
    }
  }, 30_000);

  test("the dashboard-only actions name operations of the API's table", () => {
    for (const [action, operation] of Object.entries(DASHBOARD_ACTION_POLICIES)) {
      expect(Object.hasOwn(POLICIES, action), `${action} shadows an operation`).toBe(false);
      expect(Object.keys(POLICIES), action).toContain(operation);
    }
    expect(operationOfDashboardAction("Something new")).toBeUndefined();
  });
});
