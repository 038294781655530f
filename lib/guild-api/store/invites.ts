// The invites table. "Valid" means not expired and not used up; expired invites are kept, never answered.
import type { InviteRow } from "../serializers/invite";
import { sql } from "./db";

/** The invite, whether valid or not. */
export function findInvite(code: string): InviteRow | undefined {
  return sql("SELECT * FROM invites WHERE code = ?").get(code) as InviteRow | undefined;
}
