// A person as the dashboard shows them wherever an id appears: avatar, display name, username, with the id kept for
// copying. Pure, so client components can import it.

export interface UserRef {
  id: string;
  /** Global name, else username; the id itself when the user could not be looked up. */
  displayName: string;
  /** null when unknown. */
  username: string | null;
  avatarUrl: string | null;
  bot: boolean;
  /** "found": looked up; "unknown": the API has no such user (404); "unresolved": the lookup failed for now. */
  status: "found" | "unknown" | "unresolved";
}

/** What is shown for an id nobody has looked up (or could). */
export function placeholderUser(id: string, status: UserRef["status"] = "unresolved"): UserRef {
  return { id, displayName: id, username: null, avatarUrl: null, bot: false, status };
}

/** Names by id, as server components hand them to client tables. */
export type UserRefs = Record<string, UserRef>;

export const userRefOf = (refs: UserRefs, id: string): UserRef => refs[id] ?? placeholderUser(id);
