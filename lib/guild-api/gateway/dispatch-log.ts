// The gateway's log of what it fanned out: for each batch of the outbox it drains, one line per request and dispatch
// type (`GUILD_BAN_ADD ×200`), with the request's id (the outbox row keeps it: events.ts), so an operator can follow a
// moderator's action into the API calls it made and on into the events those wrote. One line per row would be 10,000
// lines for one prune.
import { componentLogger } from "@/lib/server/logger";
import type { OutboxRow } from "../store/gateway-outbox";

const log = componentLogger("gateway");

interface Tally {
  requestId: string | null;
  type: string;
  guildId: string | null;
  count: number;
}

export class DispatchLog {
  private readonly tallies = new Map<string, Tally>();

  /** One row delivered. */
  note(row: OutboxRow): void {
    if (!log.isLevelEnabled("info")) return;
    const key = `${row.request_id ?? ""} ${row.type} ${row.guild_id ?? ""}`;
    const tally = this.tallies.get(key);
    if (tally) tally.count++;
    else
      this.tallies.set(key, {
        requestId: row.request_id,
        type: row.type,
        guildId: row.guild_id === null ? null : String(row.guild_id),
        count: 1,
      });
  }

  /** Writes the lines of the rows noted since the last flush. */
  flush(): void {
    for (const { requestId, type, guildId, count } of this.tallies.values())
      log.info(
        { request_id: requestId ?? undefined, dispatch: type, guild_id: guildId ?? undefined, count },
        count === 1 ? `dispatched ${type}` : `dispatched ${type} ×${count}`,
      );
    this.tallies.clear();
  }
}
