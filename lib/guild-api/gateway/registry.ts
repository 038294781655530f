// The process's running gateway hub, on globalThis: Next bundles its server code separately from server.ts, so a
// module-level variable set by the server would be a different variable inside Next's route handlers and actions.
import type { GatewayHub } from "./hub";

const KEY = Symbol.for("guildhall.gateway.hub");
type Holder = { [KEY]?: GatewayHub | null };

/** Records the running hub; `null, hub` clears it only if `hub` is still the one recorded. */
export function setActiveHub(hub: GatewayHub | null, previous?: GatewayHub): void {
  const holder = globalThis as Holder;
  if (hub === null && previous !== undefined && holder[KEY] !== previous) return;
  holder[KEY] = hub;
}

export function activeHub(): GatewayHub | null {
  return (globalThis as Holder)[KEY] ?? null;
}
