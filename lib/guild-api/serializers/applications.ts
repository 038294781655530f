// The fields every partial application shares on the wire (an invite's target application, /oauth2/@me's
// application): who it is and its flags. Each response adds its own fields around them.
import type { ApplicationRow } from "../store/applications";

/** The application's columns a partial application shows. */
export type PartialApplicationRow = Pick<
  ApplicationRow,
  "id" | "name" | "description" | "icon" | "flags" | "bot_public"
>;

export function serializePartialApplication(app: PartialApplicationRow) {
  return {
    id: String(app.id),
    name: app.name,
    icon: app.icon,
    description: app.description,
    type: null,
    flags: Number(app.flags),
    flags_new: String(app.flags),
    bot_public: Boolean(app.bot_public),
  };
}
