"use client";

// The roles table (the dashboard's DataTable, no sorts: the order is what is being edited): highest first, as Discord
// lists them. Drag a row (or Move up/down) to reorder the roles below your own highest role (managed roles too, as
// Discord allows), then save the order in one Modify Guild Role Positions request carrying only the roles you moved. The order compared against is exactly the API's, so a page that has just
// loaded has nothing to save, and Reset returns to it. Create, edit and delete in dialogs.
import { useMemo, useState, type DragEvent, type HTMLAttributes } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DisabledReason } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Dialog, DialogCancel } from "@/components/ui/dialog";
import { Icons } from "@/components/ui/icons";
import { Input } from "@/components/ui/input";
import { useAction } from "@/components/dashboard/use-action";
import {
  createGuildRoleAction,
  deleteGuildRoleAction,
  modifyGuildRoleAction,
  modifyGuildRolePositionsAction,
} from "@/lib/dashboard/actions/roles";
import { colorToHex, type RoleFormValues } from "@/lib/dashboard/actions/schemas/roles";
import { rolePositionChanges } from "@/lib/discord/ordering";
import { RoleEditor } from "./role-editor";
import { UnsavedOrderBar } from "@/components/dashboard/unsaved-order-bar";
import { moveButtonKey, refocusMoveButton } from "@/components/dashboard/move-focus";
import { Num } from "@/components/ui/locale";
import { DataTable, type DataColumn } from "@/components/data-table/data-table";

export interface RoleRow {
  id: string;
  name: string;
  color: number;
  position: number;
  permissions: string;
  hoist: boolean;
  mentionable: boolean;
  managed: boolean;
  everyone: boolean;
  unicodeEmoji: string | null;
  memberCount: number | null;
  /** Why the moderator cannot edit, move or delete this role (the hierarchy); null when they can. */
  lockedReason: string | null;
}

type Editing = { mode: "create" } | { mode: "edit"; role: RoleRow } | { mode: "delete"; role: RoleRow } | null;

export function RoleManager({ guildId, roles, grantable }: { guildId: string; roles: RoleRow[]; grantable: string }) {
  const everyone = roles.find((r) => r.everyone);
  const ranked = useMemo(() => roles.filter((r) => !r.everyone), [roles]);
  const loaded = useMemo(() => ranked.map((r) => r.id), [ranked]);
  const [localOrder, setOrder] = useState<string[]>(loaded);
  const [baseline, setBaseline] = useState(loaded.join());
  // A refreshed role list (after any save, a deletion included) resets the local order. React renders again at once,
  // but this render must already use the new list: the old order may name a role that no longer exists.
  const refreshed = loaded.join() !== baseline;
  if (refreshed) {
    setBaseline(loaded.join());
    setOrder(loaded);
  }
  const order = refreshed ? loaded : localOrder;
  const byId = useMemo(() => new Map(roles.map((r) => [r.id, r])), [roles]);
  // Roles at or above the moderator's highest are pinned at the top; nothing can be moved above them.
  const floor = ranked.filter((r) => r.lockedReason).length;

  const [editing, setEditing] = useState<Editing>(null);
  const [drag, setDrag] = useState<string | null>(null);
  const [over, setOver] = useState<{ id: string; where: "before" | "after" } | null>(null);
  const [reason, setReason] = useState("");

  const create = useAction(createGuildRoleAction, { failure: "Couldn't create the role" });
  const edit = useAction(modifyGuildRoleAction, { failure: "Couldn't save the role" });
  const remove = useAction(deleteGuildRoleAction, { failure: "Couldn't delete the role" });
  const reorder = useAction(modifyGuildRolePositionsAction, { failure: "Couldn't save the role order" });

  const positions = rolePositionChanges(loaded, order);

  const move = (id: string, to: number) =>
    setOrder((current) => {
      const next = current.filter((x) => x !== id);
      next.splice(Math.max(floor, Math.min(to, next.length)), 0, id);
      return next;
    });

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    if (drag && over && over.id !== drag) {
      const without = order.filter((x) => x !== drag);
      move(drag, without.indexOf(over.id) + (over.where === "after" ? 1 : 0));
    }
    setDrag(null);
    setOver(null);
  };

  // The ranked roles in their (possibly unsaved) order, then @everyone, always last. A role the order names but the
  // list no longer has is never reached while the order follows the loaded list; it is skipped rather than the page lost.
  const ordered = order.map((id) => byId.get(id)).filter((role): role is RoleRow => Boolean(role));
  const rows = everyone ? [...ordered, everyone] : ordered;
  const indexOf = new Map(order.map((id, index) => [id, index]));

  // Dragging: a movable row starts a drag; any row below the pinned roles takes a drop above or below its middle.
  const rowProps = (role: RoleRow): HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string> => {
    if (role.everyone) return { "data-role-id": role.id };
    const id = role.id;
    const index = indexOf.get(id) ?? 0;
    return {
      "data-role-id": id,
      draggable: !role.lockedReason,
      onDragStart: (e) => {
        e.dataTransfer.effectAllowed = "move";
        e.dataTransfer.setData("text/plain", id);
        setDrag(id);
      },
      onDragEnd: () => {
        setDrag(null);
        setOver(null);
      },
      onDragOver: (e) => {
        if (!drag) return;
        const rect = e.currentTarget.getBoundingClientRect();
        const where = e.clientY < rect.top + rect.height / 2 ? "before" : "after";
        // Only below the pinned roles: any movable row, or just under the last pinned one.
        if (index < floor - 1 || (index === floor - 1 && where === "before")) return;
        e.preventDefault();
        setOver({ id, where });
      },
      onDrop,
    };
  };

  const yesNo = (on: boolean) => (on ? <Badge tone="success">Yes</Badge> : <span className="text-ink-muted">No</span>);
  const columns: DataColumn<RoleRow>[] = [
    {
      id: "role",
      header: "Role",
      cell: ({ row: { original: role } }) =>
        role.everyone ? (
          <div className="flex items-start gap-2">
            <Icons.users className="mt-0.5 size-4 shrink-0 text-ink-muted" />
            <div>
              <span className="font-medium">@everyone</span>
              <p className="text-xs text-ink-muted">
                Default permissions for every member. Always last; can&apos;t be deleted.
              </p>
            </div>
          </div>
        ) : (
          <div className="flex items-start gap-2">
            {role.lockedReason ? (
              <Icons.lock className="mt-0.5 size-4 shrink-0 text-ink-muted" />
            ) : (
              <Icons.grip className="mt-0.5 size-4 shrink-0 cursor-grab text-ink-muted" />
            )}
            <div className="min-w-0">
              <div className="flex items-center gap-2">
                <span
                  aria-hidden
                  className="size-3 shrink-0 rounded-full"
                  style={{ background: role.color ? colorToHex(role.color) : "#99aab5" }}
                />
                {/* The name in ink, not in the role's colour (the dot shows it): many role colours fail contrast. */}
                <span className="font-medium">
                  {role.unicodeEmoji ? `${role.unicodeEmoji} ` : ""}
                  {role.name}
                </span>
                {role.managed && <Badge>Managed</Badge>}
              </div>
              {role.lockedReason && <DisabledReason reason={`Read-only: ${role.lockedReason}`} className="mt-0.5" />}
              {role.managed && !role.lockedReason && (
                <DisabledReason reason="Managed by an integration: its permissions are read-only" className="mt-0.5" />
              )}
            </div>
          </div>
        ),
    },
    {
      id: "members",
      header: "Members",
      align: "right",
      cell: ({ row: { original: role } }) => (
        <span className="tabular-nums">{role.memberCount === null ? "—" : <Num value={role.memberCount} />}</span>
      ),
    },
    {
      id: "hoist",
      header: "Display separately",
      cell: ({ row: { original: role } }) =>
        role.everyone ? <span className="text-ink-muted">—</span> : yesNo(role.hoist),
    },
    {
      id: "mentionable",
      header: "Mentionable",
      cell: ({ row: { original: role } }) =>
        role.everyone ? <span className="text-ink-muted">—</span> : yesNo(role.mentionable),
    },
    {
      id: "actions",
      header: "Actions",
      headerHidden: true,
      cell: ({ row: { original: role } }) => {
        if (role.everyone)
          return (
            <div className="flex sm:justify-end">
              <Button
                size="sm"
                variant="secondary"
                aria-label="Edit @everyone permissions"
                onClick={() => setEditing({ mode: "edit", role })}
              >
                Permissions
              </Button>
            </div>
          );
        const id = role.id;
        const index = indexOf.get(id) ?? 0;
        const movable = !role.lockedReason;
        return (
          <div className="flex flex-wrap gap-1 sm:flex-nowrap sm:justify-end">
            <Button
              size="sm"
              variant="ghost"
              className="px-2"
              aria-label={`Move ${role.name} up`}
              data-move={moveButtonKey(id, "up")}
              disabled={!movable || index <= floor}
              onClick={() => {
                move(id, index - 1);
                refocusMoveButton(id, "up");
              }}
            >
              ↑
            </Button>
            <Button
              size="sm"
              variant="ghost"
              className="px-2"
              aria-label={`Move ${role.name} down`}
              data-move={moveButtonKey(id, "down")}
              disabled={!movable || index === order.length - 1}
              onClick={() => {
                move(id, index + 1);
                refocusMoveButton(id, "down");
              }}
            >
              ↓
            </Button>
            <Button
              size="sm"
              variant="secondary"
              aria-label={`${movable ? "Edit" : "View"} ${role.name}`}
              title={role.lockedReason ?? undefined}
              onClick={() => setEditing({ mode: "edit", role })}
            >
              {movable ? "Edit" : "View"}
            </Button>
            <Button
              size="sm"
              variant="ghost"
              className="text-danger"
              aria-label={`Delete ${role.name}`}
              disabled={!movable || role.managed}
              title={role.lockedReason ?? (role.managed ? "managed by an integration" : undefined)}
              onClick={() => setEditing({ mode: "delete", role })}
            >
              Delete
            </Button>
          </div>
        );
      },
    },
  ];

  const editorDefaults = (role?: RoleRow): RoleFormValues =>
    role
      ? {
          name: role.name,
          color: role.color,
          hoist: role.hoist,
          mentionable: role.mentionable,
          permissions: role.permissions,
        }
      : { name: "new role", color: 0, hoist: false, mentionable: false, permissions: everyone?.permissions ?? "0" };

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-ink-muted">
          {ranked.length} roles. Drag to reorder; a member shows the colour of their highest role.
        </p>
        <Button onClick={() => setEditing({ mode: "create" })}>
          <Icons.plus className="size-4" /> Create role
        </Button>
      </div>

      <DataTable
        id="roles"
        columns={columns}
        data={rows}
        getRowId={(role) => role.id}
        caption="Roles, highest first"
        emptyTitle="No roles"
        rowProps={rowProps}
        rowClassName={(role) =>
          role.everyone
            ? // On the cells, opaque: the pinned first cell has a background of its own, over the row's.
              "sm:[&>td]:bg-[color-mix(in_srgb,var(--surface-sunken)_40%,var(--surface-raised))]"
            : cn(
                drag === role.id && "opacity-40",
                // On the cells: the first one is pinned, and its own background would hide a line drawn on the row.
                over?.id === role.id && over.where === "before" && "[&>td]:shadow-[inset_0_2px_0_0_#5865F2]",
                over?.id === role.id && over.where === "after" && "[&>td]:shadow-[inset_0_-2px_0_0_#5865F2]",
              )
        }
      />

      {positions.length > 0 && (
        <UnsavedOrderBar
          label="Unsaved role order"
          summary={`New order for ${positions.length} role${positions.length === 1 ? "" : "s"}.`}
          reason={reason}
          onReasonChange={setReason}
          onReset={() => setOrder(loaded)}
          onSave={async () => {
            const r = await reorder.run({ guildId, reason: reason || undefined, positions });
            if (r.ok) setReason("");
          }}
          pending={reorder.pending}
        />
      )}

      <Dialog
        open={editing?.mode === "create" || editing?.mode === "edit"}
        onClose={() => setEditing(null)}
        title={
          editing?.mode === "edit"
            ? `${editing.role.lockedReason ? "View" : "Edit"} ${editing.role.everyone ? "@everyone" : editing.role.name}`
            : "Create role"
        }
        size="lg"
      >
        {(editing?.mode === "create" || editing?.mode === "edit") && (
          <RoleEditor
            key={editing.mode === "edit" ? editing.role.id : "new"}
            defaults={editorDefaults(editing.mode === "edit" ? editing.role : undefined)}
            grantable={grantable}
            everyone={editing.mode === "edit" && editing.role.everyone}
            readOnlyReason={editing.mode === "edit" ? editing.role.lockedReason : null}
            permissionsLockedReason={
              editing.mode === "edit" && editing.role.managed
                ? "Managed by an integration: its permissions come from the integration."
                : null
            }
            submitLabel={editing.mode === "edit" ? "Save changes" : "Create role"}
            pending={create.pending || edit.pending}
            onSubmit={async (values) => {
              let result;
              if (editing.mode === "create") {
                result = await create.run({ guildId, ...values });
              } else {
                const role = editing.role;
                const changed = Object.fromEntries(
                  (["name", "color", "hoist", "mentionable", "permissions"] as const)
                    .filter((k) => values[k] !== editorDefaults(role)[k])
                    .map((k) => [k, values[k]]),
                );
                if (Object.keys(changed).length === 0) {
                  setEditing(null);
                  return { ok: true };
                }
                result = await edit.run({ guildId, roleId: role.id, reason: values.reason, ...changed });
              }
              if (result.ok) setEditing(null);
              return result;
            }}
          />
        )}
      </Dialog>

      <DeleteRoleDialog
        role={editing?.mode === "delete" ? editing.role : null}
        pending={remove.pending}
        onClose={() => setEditing(null)}
        onConfirm={async (role, why) => {
          const result = await remove.run({ guildId, roleId: role.id, reason: why || undefined });
          if (result.ok) setEditing(null);
        }}
      />
    </div>
  );
}

function DeleteRoleDialog({
  role,
  pending,
  onClose,
  onConfirm,
}: {
  role: RoleRow | null;
  pending: boolean;
  onClose: () => void;
  onConfirm: (role: RoleRow, reason: string) => void;
}) {
  const [reason, setReason] = useState("");
  // The reason typed for one role is not offered for the next.
  const close = () => {
    setReason("");
    onClose();
  };
  return (
    <Dialog
      open={role !== null}
      onClose={close}
      dirty={reason !== ""}
      title={`Delete ${role?.name ?? "role"}?`}
      description={
        role
          ? `${role.memberCount ?? "Its"} member${role.memberCount === 1 ? "" : "s"} will lose this role. This can't be undone.`
          : undefined
      }
      size="sm"
      footer={
        <>
          <DialogCancel />
          <Button variant="danger" pending={pending} onClick={() => role && onConfirm(role, reason)}>
            Delete role
          </Button>
        </>
      }
    >
      <label htmlFor="delete-role-reason" className="text-sm font-medium">
        Reason
      </label>
      <Input
        id="delete-role-reason"
        className="mt-1"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        maxLength={512}
        placeholder="Recorded in the audit log"
      />
    </Dialog>
  );
}
