"use client";

// The role form: name, colour, display options, and the permission editor grouped as in Discord (General,
// Membership, Text, Voice, Apps, Stage, Events, Advanced), each permission with Discord's one-line explanation, a
// search box and "Clear permissions", elevated permissions flagged and permissions the moderator does not hold locked
// (nobody can grant what they lack). A role the moderator may not edit opens read-only, with the reason.
import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { useDialogForm } from "@/components/ui/dialog";
import { DisabledReason } from "@/components/ui/card";
import { Field, fieldProps } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Switch } from "@/components/ui/switch";
import { applyFieldErrors } from "@/components/dashboard/use-action";
import { PERMISSION_GROUPS } from "@/lib/discord/permission-names";
import { RoleFormSchema, colorToHex, hexToColor, type RoleFormValues } from "@/lib/dashboard/actions/schemas/roles";
import type { FieldErrors } from "@/lib/dashboard/actions/action-client";
import { ReasonField } from "@/components/dashboard/reason-input";

const SWATCHES = [0x1abc9c, 0x2ecc71, 0x3498db, 0x9b59b6, 0xe91e63, 0xf1c40f, 0xe67e22, 0xe74c3c, 0x95a5a6, 0x607d8b];

export interface RoleEditorProps {
  defaults: RoleFormValues;
  /** Decimal bitfield of what the moderator may grant. */
  grantable: string;
  everyone?: boolean;
  /** Why the moderator may not edit this role at all (it opens read-only); null when they may. */
  readOnlyReason?: string | null;
  /** Why the role's permissions are read-only (a managed role's come from its integration); null when they are not. */
  permissionsLockedReason?: string | null;
  submitLabel: string;
  pending: boolean;
  onSubmit: (values: RoleFormValues & { reason?: string }) => Promise<{ ok: boolean; fieldErrors?: FieldErrors }>;
}

export function RoleEditor({
  defaults,
  grantable,
  everyone,
  readOnlyReason = null,
  permissionsLockedReason = null,
  submitLabel,
  pending,
  onSubmit,
}: RoleEditorProps) {
  const { register, handleSubmit, watch, setValue, setError, formState } = useForm<RoleFormValues>({
    resolver: zodResolver(RoleFormSchema),
    defaultValues: defaults,
  });
  const errors = formState.errors;
  const [reason, setReason] = useState("");
  const [filter, setFilter] = useState("");
  const { requestClose } = useDialogForm(!readOnlyReason && (formState.isDirty || reason !== ""));
  const permissions = BigInt(watch("permissions") || "0");
  const color = watch("color");
  const allowed = readOnlyReason || permissionsLockedReason ? 0n : BigInt(grantable);
  const lockReason = readOnlyReason
    ? `Read-only: ${readOnlyReason}`
    : (permissionsLockedReason ?? "you don't have this permission");

  const toggle = (flag: bigint, on: boolean) =>
    setValue("permissions", (on ? permissions | flag : permissions & ~flag).toString(), { shouldDirty: true });

  const submit = handleSubmit(async (values) => {
    const result = await onSubmit({ ...values, reason: reason || undefined });
    if (!result.ok && result.fieldErrors)
      applyFieldErrors(setError, result.fieldErrors, ["name", "color", "hoist", "mentionable", "permissions"]);
  });

  const query = filter.trim().toLowerCase();
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5" aria-label="Role">
      {readOnlyReason && (
        <p role="note" className="rounded-md bg-surface-sunken px-3 py-2 text-sm">
          <DisabledReason reason={`You can't edit this role: ${readOnlyReason}.`} />
        </p>
      )}
      {permissionsLockedReason && !readOnlyReason && (
        <p role="note" className="rounded-md bg-surface-sunken px-3 py-2 text-sm">
          <DisabledReason reason={permissionsLockedReason} />
        </p>
      )}
      <fieldset disabled={Boolean(readOnlyReason)} className="contents">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="role-name" label="Role name" hint="At most 100 characters." error={errors.name?.message}>
            <Input {...fieldProps("role-name", errors.name?.message)} disabled={everyone} {...register("name")} />
          </Field>
          <Field id="role-color" label="Colour" hint={color === 0 ? "Default (no colour)." : colorToHex(color)}>
            <div className="flex flex-wrap items-center gap-1.5">
              <button
                type="button"
                aria-label="Default colour"
                onClick={() => setValue("color", 0, { shouldDirty: true })}
                className="size-7 rounded-md bg-[#99aab5] ring-1 ring-line"
              />
              {SWATCHES.map((swatch) => (
                <button
                  key={swatch}
                  type="button"
                  aria-label={`Colour ${colorToHex(swatch)}`}
                  aria-pressed={color === swatch}
                  onClick={() => setValue("color", swatch, { shouldDirty: true })}
                  className="size-7 rounded-md ring-offset-2 ring-offset-surface aria-pressed:ring-2 aria-pressed:ring-ink"
                  style={{ background: colorToHex(swatch) }}
                />
              ))}
              <input
                id="role-color"
                type="color"
                aria-label="Custom colour"
                value={colorToHex(color)}
                onChange={(e) => setValue("color", hexToColor(e.target.value), { shouldDirty: true })}
                className="h-7 w-10 cursor-pointer rounded-md border border-line bg-transparent"
                disabled={everyone}
              />
            </div>
          </Field>
        </div>
        {!everyone && (
          <div className="divide-y divide-line rounded-lg ring-1 ring-line px-3">
            <Switch
              id="role-hoist"
              label="Display role members separately from online members"
              {...register("hoist")}
            />
            <Switch id="role-mentionable" label="Allow anyone to @mention this role" {...register("mentionable")} />
          </div>
        )}
      </fieldset>

      <section aria-labelledby="perm-heading" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-end justify-between gap-2">
          <h3 id="perm-heading" className="text-sm font-semibold">
            Permissions
          </h3>
          <div className="flex items-center gap-2">
            <Input
              aria-label="Search permissions"
              placeholder="Search permissions"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
              className="h-8 w-48"
            />
            <Button
              size="sm"
              variant="ghost"
              disabled={allowed === 0n}
              onClick={() => setValue("permissions", (permissions & ~allowed).toString(), { shouldDirty: true })}
            >
              Clear permissions
            </Button>
          </div>
        </div>
        {errors.permissions?.message && (
          <p role="alert" className="text-xs text-danger">
            {errors.permissions.message}
          </p>
        )}
        {PERMISSION_GROUPS.map((group) => {
          const items = group.permissions.filter(
            (p) => !query || p.label.toLowerCase().includes(query) || p.description.toLowerCase().includes(query),
          );
          if (items.length === 0) return null;
          return (
            <fieldset key={group.id} className="rounded-lg ring-1 ring-line">
              <legend className="ml-3 px-1 text-xs font-bold uppercase tracking-wide text-ink-muted">
                {group.label}
              </legend>
              <div className="divide-y divide-line px-3">
                {items.map((p) => {
                  const on = (permissions & p.flag) === p.flag;
                  const locked = (allowed & p.flag) !== p.flag;
                  return (
                    <Switch
                      key={p.key}
                      aria-label={p.label}
                      label={
                        <span className="flex flex-wrap items-center gap-2">
                          {p.label}
                          {p.dangerous && (
                            <Badge
                              tone="warning"
                              title="Elevated: lets a member damage the server or other members; needs 2FA when the server requires it"
                            >
                              Elevated
                            </Badge>
                          )}
                        </span>
                      }
                      description={p.description}
                      reason={locked ? lockReason : null}
                      checked={on}
                      disabled={locked}
                      onChange={(e) => toggle(p.flag, e.target.checked)}
                    />
                  );
                })}
              </div>
            </fieldset>
          );
        })}
      </section>
      <ReasonField
        id="role-reason"
        disabled={Boolean(readOnlyReason)}
        label="Reason (optional)"
        hint="Recorded in the audit log."
        value={reason}
        onChange={setReason}
      />
      {errors.root?.server?.message && (
        <p role="alert" className="text-sm text-danger">
          {errors.root.server.message}
        </p>
      )}
      <div className="sticky bottom-0 -mx-5 -mb-4 flex justify-end gap-2 border-t border-line bg-surface px-5 py-3">
        <Button variant="ghost" onClick={requestClose}>
          Cancel
        </Button>
        {!readOnlyReason && (
          <Button type="submit" pending={pending}>
            {submitLabel}
          </Button>
        )}
      </div>
    </form>
  );
}
