"use client";

// The channel list by category. Drag a channel (or use its Move up/down buttons and category menu, from the
// keyboard) to reorder it or move it to another category; drag categories to reorder them. Nothing is sent until
// "Save order": then only the channels that moved (and any sibling that must make room) go in one Modify Guild
// Channel Positions request. The order compared against is exactly the API's, sorted as Discord sorts it, so a page
// that has just loaded has nothing to save. Each channel links to its settings, and shows whether it is private
// and whether its permissions are synced with its category.
import { useMemo, useState, type DragEvent } from "react";
import Link from "next/link";
import { ChannelType } from "discord-api-types/v10";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Icons } from "@/components/ui/icons";
import { Select } from "@/components/ui/input";
import { useAction } from "@/components/dashboard/use-action";
import { modifyGuildChannelPositionsAction } from "@/lib/dashboard/actions/channels";
import type { ChannelSummary } from "@/lib/dashboard/data/channels";
import { isPrivateChannel, isSyncedWithParent } from "@/lib/discord/channel-permissions";
import {
  channelLayout,
  channelPositionChanges,
  NO_CATEGORY,
  settleLayout,
  type ChannelLayout as Layout,
} from "@/lib/discord/ordering";
import { ChannelIcon } from "./channel-icon";
import { UnsavedOrderBar } from "@/components/dashboard/unsaved-order-bar";
import { moveButtonKey, refocusMoveButton } from "@/components/dashboard/move-focus";

const ROOT = NO_CATEGORY;

type Drag = { kind: "channel" | "category"; id: string } | null;
type DropMark = { target: string; where: "before" | "after" | "inside" } | null;

export function ChannelTree({ guildId, channels }: { guildId: string; channels: ChannelSummary[] }) {
  const byId = useMemo(() => new Map(channels.map((c) => [c.id, c])), [channels]);
  const original = useMemo(() => channelLayout(channels), [channels]);
  const [layout, setLayoutState] = useState<Layout>(original);
  const [baseline, setBaseline] = useState(original);
  // A refreshed list (after a save, or another moderator's change arriving live) is followed, unless a reorder is
  // pending here: that stays as the moderator left it.
  if (original !== baseline) {
    setBaseline(original);
    if (JSON.stringify(layout) === JSON.stringify(baseline)) setLayoutState(original);
  }
  // Voice channels always follow text ones within a category in Discord's list: keep the editor honest about it.
  const setLayout = (update: (current: Layout) => Layout) =>
    setLayoutState((current) => settleLayout(update(current), (id) => byId.get(id)!.type));
  const [drag, setDrag] = useState<Drag>(null);
  const [mark, setMark] = useState<DropMark>(null);
  const [syncPermissions, setSyncPermissions] = useState(false);
  const [reason, setReason] = useState("");
  const { run, pending } = useAction(modifyGuildChannelPositionsAction, { failure: "Couldn't save the channel order" });

  const parentOf = (id: string) =>
    Object.keys(layout.children).find((key) => layout.children[key].includes(id)) ?? ROOT;

  const changes = useMemo(() => {
    const planned = channelPositionChanges(channels, original, layout);
    return planned.map((change) =>
      change.parent_id !== undefined && change.parent_id !== null && syncPermissions
        ? { ...change, lock_permissions: true }
        : change,
    );
  }, [channels, original, layout, syncPermissions]);
  const movedCount = changes.filter((c) => c.parent_id !== undefined).length;

  function moveChannel(id: string, toParent: string, toIndex: number) {
    setLayout((current) => {
      const children = Object.fromEntries(
        Object.entries(current.children).map(([k, v]) => [k, v.filter((x) => x !== id)]),
      );
      const list = children[toParent];
      list.splice(Math.max(0, Math.min(toIndex, list.length)), 0, id);
      return { ...current, children };
    });
  }

  function moveCategory(id: string, toIndex: number) {
    setLayout((current) => {
      const categories = current.categories.filter((x) => x !== id);
      categories.splice(Math.max(0, Math.min(toIndex, categories.length)), 0, id);
      return { ...current, categories };
    });
  }

  function step(id: string, delta: -1 | 1) {
    refocusMoveButton(id, delta < 0 ? "up" : "down");
    const channel = byId.get(id)!;
    if (channel.type === ChannelType.GuildCategory) {
      moveCategory(id, layout.categories.indexOf(id) + delta);
      return;
    }
    const parent = parentOf(id);
    moveChannel(id, parent, layout.children[parent].indexOf(id) + delta);
  }

  const onDragOver = (event: DragEvent, target: string, inside = false) => {
    if (!drag) return;
    const targetIsCategory = byId.get(target)?.type === ChannelType.GuildCategory || target === ROOT;
    if (drag.kind === "category" && !targetIsCategory) return;
    event.preventDefault();
    const rect = (event.currentTarget as HTMLElement).getBoundingClientRect();
    const where = inside ? "inside" : event.clientY < rect.top + rect.height / 2 ? "before" : "after";
    setMark({ target, where: drag.kind === "channel" && targetIsCategory ? "inside" : where });
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    if (!drag || !mark) return reset();
    if (drag.kind === "category") {
      if (mark.target !== ROOT && mark.target !== drag.id) {
        const without = layout.categories.filter((x) => x !== drag.id);
        const index = without.indexOf(mark.target) + (mark.where === "after" ? 1 : 0);
        moveCategory(drag.id, index);
      }
    } else if (mark.where === "inside") {
      moveChannel(drag.id, mark.target, Number.MAX_SAFE_INTEGER);
    } else if (mark.target !== drag.id) {
      const parent = parentOf(mark.target);
      const without = layout.children[parent].filter((x) => x !== drag.id);
      moveChannel(drag.id, parent, without.indexOf(mark.target) + (mark.where === "after" ? 1 : 0));
    }
    reset();
  };

  const reset = () => {
    setDrag(null);
    setMark(null);
  };

  const categoryOptions = [
    { id: ROOT, name: "No category" },
    ...layout.categories.map((id) => ({ id, name: byId.get(id)!.name })),
  ];

  const row = (id: string, index: number, siblings: number) => {
    const channel = byId.get(id)!;
    const parent = parentOf(id);
    const moved = (channel.parent_id ?? ROOT) !== parent;
    return (
      <li
        key={id}
        data-channel-id={id}
        draggable
        onDragStart={(e) => {
          e.dataTransfer.effectAllowed = "move";
          e.dataTransfer.setData("text/plain", id);
          setDrag({ kind: "channel", id });
        }}
        onDragEnd={reset}
        onDragOver={(e) => onDragOver(e, id)}
        onDrop={onDrop}
        className={cn(
          "group relative flex items-center gap-2 rounded-md px-2 py-1.5 hover:bg-surface-sunken focus-within:bg-surface-sunken",
          drag?.id === id && "opacity-40",
          mark?.target === id &&
            mark.where === "before" &&
            "before:absolute before:inset-x-0 before:-top-px before:h-0.5 before:bg-blurple",
          mark?.target === id &&
            mark.where === "after" &&
            "after:absolute after:inset-x-0 after:-bottom-px after:h-0.5 after:bg-blurple",
        )}
      >
        <Icons.grip className="size-4 shrink-0 cursor-grab text-ink-muted/60" />
        <ChannelIcon type={channel.type} />
        <span className="min-w-0 flex-1 truncate text-sm">
          <Link
            href={`/guilds/${guildId}/channels/${id}`}
            // One prefetch per visible channel was most of this page's requests (6 a view): a click fetches the page.
            prefetch={false}
            className="hover:underline"
            aria-label={`${channel.name} settings`}
          >
            {channel.name}
          </Link>
          {channel.nsfw && (
            <Badge tone="danger" className="ml-2">
              NSFW
            </Badge>
          )}
          {isPrivateChannel(channel.overwrites, guildId) && (
            <span
              title="Private channel: @everyone can't view it"
              className="ml-2 inline-flex align-middle text-ink-muted"
            >
              <Icons.lock className="size-3" />
              <span className="sr-only">Private</span>
            </span>
          )}
          {channel.parent_id &&
            byId.get(channel.parent_id) &&
            !isSyncedWithParent(channel.overwrites, byId.get(channel.parent_id)!.overwrites) && (
              <Badge tone="warning" className="ml-2" title="Permissions differ from the category's">
                not synced
              </Badge>
            )}
          {moved && (
            <Badge tone="blurple" className="ml-2">
              moved
            </Badge>
          )}
        </span>
        <span className="flex shrink-0 items-center gap-1 opacity-100 md:opacity-0 md:group-focus-within:opacity-100 md:group-hover:opacity-100">
          <Select
            aria-label={`Category of ${channel.name}`}
            value={parent}
            onChange={(e) => moveChannel(id, e.target.value, Number.MAX_SAFE_INTEGER)}
            className="h-8 w-28 py-0 text-xs sm:w-36"
          >
            {categoryOptions.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </Select>
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Move ${channel.name} up`}
            data-move={moveButtonKey(id, "up")}
            disabled={index === 0}
            onClick={() => step(id, -1)}
            className="px-2"
          >
            ↑
          </Button>
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Move ${channel.name} down`}
            data-move={moveButtonKey(id, "down")}
            disabled={index === siblings - 1}
            onClick={() => step(id, 1)}
            className="px-2"
          >
            ↓
          </Button>
        </span>
      </li>
    );
  };

  return (
    <div className="flex flex-col gap-4">
      <Card className="p-2 sm:p-3">
        <div onDragOver={(e) => drag?.kind === "channel" && onDragOver(e, ROOT, true)} onDrop={onDrop}>
          {layout.children[ROOT].length > 0 && (
            <ul
              aria-label="Channels without a category"
              className={cn("mb-2 flex flex-col", mark?.target === ROOT && "rounded-md ring-2 ring-blurple")}
            >
              {layout.children[ROOT].map((id, i) => row(id, i, layout.children[ROOT].length))}
            </ul>
          )}
        </div>
        <ol aria-label="Categories" className="flex flex-col gap-3">
          {layout.categories.map((categoryId, index) => {
            const category = byId.get(categoryId)!;
            const ids = layout.children[categoryId];
            return (
              <li
                key={categoryId}
                data-channel-id={categoryId}
                className={cn("rounded-md", drag?.id === categoryId && "opacity-40")}
              >
                <div
                  draggable
                  onDragStart={(e) => {
                    e.dataTransfer.effectAllowed = "move";
                    e.dataTransfer.setData("text/plain", categoryId);
                    setDrag({ kind: "category", id: categoryId });
                  }}
                  onDragEnd={reset}
                  onDragOver={(e) => onDragOver(e, categoryId)}
                  onDrop={onDrop}
                  className={cn(
                    "group relative flex items-center gap-2 rounded-md px-2 py-1.5",
                    mark?.target === categoryId && mark.where === "inside" && "bg-blurple/10 ring-2 ring-blurple",
                    mark?.target === categoryId &&
                      mark.where === "before" &&
                      "before:absolute before:inset-x-0 before:-top-px before:h-0.5 before:bg-blurple",
                    mark?.target === categoryId &&
                      mark.where === "after" &&
                      "after:absolute after:inset-x-0 after:-bottom-px after:h-0.5 after:bg-blurple",
                  )}
                >
                  <Icons.grip className="size-4 shrink-0 cursor-grab text-ink-muted/60" />
                  <Icons.chevronDown className="size-3 text-ink-muted" />
                  <h3 className="flex-1 truncate text-xs font-bold uppercase tracking-wide text-ink-muted">
                    <Link
                      href={`/guilds/${guildId}/channels/${categoryId}`}
                      prefetch={false}
                      className="hover:underline"
                      aria-label={`${category.name} settings`}
                    >
                      {category.name}
                    </Link>
                    {isPrivateChannel(category.overwrites, guildId) && (
                      <span title="Private category" className="ml-2 inline-flex align-middle">
                        <Icons.lock className="size-3" />
                        <span className="sr-only">Private</span>
                      </span>
                    )}
                  </h3>
                  <span className="text-xs text-ink-muted">{ids.length}</span>
                  <span className="flex items-center gap-1 md:opacity-0 md:group-focus-within:opacity-100 md:group-hover:opacity-100">
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Move category ${category.name} up`}
                      data-move={moveButtonKey(categoryId, "up")}
                      disabled={index === 0}
                      onClick={() => step(categoryId, -1)}
                      className="px-2"
                    >
                      ↑
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Move category ${category.name} down`}
                      data-move={moveButtonKey(categoryId, "down")}
                      disabled={index === layout.categories.length - 1}
                      onClick={() => step(categoryId, 1)}
                      className="px-2"
                    >
                      ↓
                    </Button>
                  </span>
                </div>
                <ul
                  aria-label={`Channels in ${category.name}`}
                  className="ml-4 flex min-h-6 flex-col border-l border-line pl-2"
                  onDragOver={(e) => ids.length === 0 && onDragOver(e, categoryId, true)}
                  onDrop={onDrop}
                >
                  {ids.length === 0 && <li className="px-2 py-1 text-xs text-ink-muted">Empty: drop a channel here</li>}
                  {ids.map((id, i) => row(id, i, ids.length))}
                </ul>
              </li>
            );
          })}
        </ol>
      </Card>

      {changes.length > 0 && (
        <UnsavedOrderBar
          label="Unsaved channel order"
          summary={`${changes.length} change${changes.length === 1 ? "" : "s"} to save${movedCount ? `, ${movedCount} moved to another category` : ""}.`}
          reason={reason}
          onReasonChange={setReason}
          onReset={() => setLayoutState(original)}
          onSave={() => void run({ guildId, reason: reason || undefined, positions: changes })}
          pending={pending}
        >
          {movedCount > 0 && (
            <label className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                className="size-4 accent-blurple"
                checked={syncPermissions}
                onChange={(e) => setSyncPermissions(e.target.checked)}
              />
              Sync permissions with the new category
            </label>
          )}
        </UnsavedOrderBar>
      )}
    </div>
  );
}
