"use client";

// Roles: a checkbox per role; roles the moderator cannot assign or remove (managed, at or above their highest role)
// are disabled with the reason. Saving sends the whole set (Modify Guild Member's roles).
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button } from "@/components/ui/button";
import { DisabledReason } from "@/components/ui/card";
import { applyFieldErrors, useAction } from "@/components/dashboard/use-action";
import { setMemberRolesAction } from "@/lib/dashboard/actions/members";
import { MemberRolesFormSchema, type MemberRolesFormValues } from "@/lib/dashboard/actions/schemas/members";
import { colorToHex } from "@/lib/dashboard/actions/schemas/roles";
import type { RoleChip } from "../members-table";
import { ActionErrors, PanelSection, type PanelFormProps } from "./panel-section";
import { useReportDirty } from "./use-dirty-forms";

export function RolesForm({ current, roles, ...props }: PanelFormProps & { current: string[]; roles: RoleChip[] }) {
  // Controlled checkboxes (not register): a disabled box's role must stay in the set sent, and the set is kept in one
  // order so unticking what was ticked leaves the form clean.
  const { handleSubmit, setError, reset, setValue, watch, formState } = useForm<MemberRolesFormValues>({
    resolver: zodResolver(MemberRolesFormSchema),
    defaultValues: { roles: [...current].sort() },
  });
  const selected = watch("roles");
  const toggle = (id: string, on: boolean) =>
    setValue("roles", (on ? [...selected, id] : selected.filter((r) => r !== id)).sort(), { shouldDirty: true });
  useReportDirty(formState.isDirty, props.onDirtyChange);
  const action = useAction(setMemberRolesAction, { failure: "Couldn't change the roles" });

  return (
    <PanelSection title="Roles" reason={props.blocked}>
      <form
        onSubmit={handleSubmit(async (values) => {
          const result = await action.run({
            guildId: props.guildId,
            userId: props.userId,
            roles: values.roles,
          });
          if (!result.ok) applyFieldErrors(setError, result.fieldErrors, []);
        })}
      >
        <ul className="grid gap-1 sm:grid-cols-2" aria-label="Roles">
          {roles.map((role) => {
            const locked = props.blocked ?? role.lockedReason;
            return (
              <li key={role.id}>
                <label
                  className={`flex items-start gap-2 rounded-md px-2 py-1.5 text-sm ${locked ? "cursor-not-allowed opacity-70" : "cursor-pointer hover:bg-surface-sunken"}`}
                >
                  <input
                    type="checkbox"
                    className="mt-0.5 size-4 accent-blurple"
                    checked={selected.includes(role.id)}
                    disabled={Boolean(locked)}
                    onChange={(e) => toggle(role.id, e.target.checked)}
                  />
                  <span className="min-w-0">
                    <span className="flex items-center gap-1.5">
                      <span
                        aria-hidden
                        className="size-2.5 rounded-full"
                        style={{ background: role.color ? colorToHex(role.color) : "#99aab5" }}
                      />
                      {role.name}
                    </span>
                    {role.lockedReason && !props.blocked && (
                      <DisabledReason reason={role.lockedReason} className="flex" />
                    )}
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
        {formState.isDirty && (
          <div className="mt-2 flex gap-2">
            <Button size="sm" type="submit" pending={action.pending}>
              Save roles
            </Button>
            <Button size="sm" variant="ghost" onClick={() => reset()}>
              Reset
            </Button>
          </div>
        )}
      </form>
      <ActionErrors message={formState.errors.root?.server?.message ?? formState.errors.roles?.message} />
    </PanelSection>
  );
}
