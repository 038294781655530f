// The application flags that enable the privileged gateway intents (GATEWAY_PRESENCE, GATEWAY_GUILD_MEMBERS,
// GATEWAY_MESSAGE_CONTENT and their _LIMITED twins), in the applications.flags column Discord's flags live in.
import { sql } from "./db";

export function applicationFlagsOf(applicationId: bigint): bigint {
  return (
    (sql("SELECT flags FROM applications WHERE id = ?").get(applicationId) as { flags: bigint } | undefined)?.flags ??
    0n
  );
}

export function writeApplicationFlags(applicationId: bigint, flags: bigint): void {
  sql("UPDATE applications SET flags = ? WHERE id = ?").run(flags, applicationId);
}
