// Membership screening after joining: the server's rules (its welcome screen's words), and agreeing to them, which
// completes screening for the member signed in at the provider.
import { buttonClasses } from "@/components/ui/button";
import { completeScreeningAction } from "../actions";

export function ScreeningForm({ code, guildName, rules }: { code: string; guildName: string; rules: string | null }) {
  return (
    <form action={completeScreeningAction} className="flex flex-col gap-3 rounded-lg bg-surface-sunken p-4 text-sm">
      <h2 className="font-semibold">Membership screening</h2>
      <p>
        You joined {guildName}, and are pending until you agree to its rules. Until then you can read, but not take
        part.
      </p>
      {rules && <blockquote className="border-l-2 border-line pl-3 text-ink-muted">{rules}</blockquote>}
      <input type="hidden" name="code" value={code} />
      <button type="submit" className={buttonClasses("primary", "md", "w-full")}>
        I agree to the rules
      </button>
    </form>
  );
}
