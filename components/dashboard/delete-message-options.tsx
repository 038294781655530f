// The choices of "Delete message history" as Discord's ban dialog offers them, for a ban form's <Select>.
import { DELETE_MESSAGE_OPTIONS } from "@/lib/dashboard/actions/schemas/members";

export function DeleteMessageOptions() {
  return DELETE_MESSAGE_OPTIONS.map((o) => (
    <option key={o.seconds} value={o.seconds}>
      {o.label}
    </option>
  ));
}
