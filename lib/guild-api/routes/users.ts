// /users routes: the caller's own user.
import { Errors } from "../errors";
import { ok, route, type RouteContext } from "../http";
import { sql } from "../store/db";
import { serializeCurrentUser, USER_COLUMNS, type UserRow } from "../serializers/user";

/** Bearer tokens need `scope`; bot tokens are not scoped. */
export function requireScope(ctx: RouteContext, scope: string): void {
  const caller = ctx.caller;
  if (caller.kind === "bearer" && !caller.scopes.has(scope)) throw Errors.missingScope();
}

export const userRoutes = [
  // GET /users/@me: Get Current User (OAuth2 scope identify)
  route("GET", "/users/@me", "required", (ctx) => {
    requireScope(ctx, "identify");
    const row = sql(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`).get(ctx.caller.userId) as UserRow | undefined;
    if (!row) throw Errors.unknownUser();
    return ok(serializeCurrentUser(row));
  }),
];
