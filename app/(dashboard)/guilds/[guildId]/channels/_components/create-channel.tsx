"use client";

// Create Guild Channel: pick a type, then only the fields that type takes (the spec's per-type table).
import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { ChannelType } from "discord-api-types/v10";
import { Button } from "@/components/ui/button";
import { Dialog, useDialogForm } from "@/components/ui/dialog";
import { Field, fieldProps } from "@/components/ui/field";
import { Icons } from "@/components/ui/icons";
import { Input, Select, Textarea } from "@/components/ui/input";
import { cn } from "@/components/ui/cn";
import { applyFieldErrors, useAction } from "@/components/dashboard/use-action";
import { createGuildChannelAction } from "@/lib/dashboard/actions/channels";
import {
  CREATABLE_CHANNEL_TYPES,
  CreateChannelFormSchema,
  fieldAppliesTo,
  type ChannelField,
  type CreateChannelValues,
} from "@/lib/dashboard/actions/schemas/channels";
import {
  BITRATE_MIN,
  CHANNEL_TOPIC_MAX,
  DEFAULT_BITRATE,
  RATE_LIMIT_PER_USER_MAX,
  STAGE_BITRATE_MAX,
  THREAD_AUTO_ARCHIVE_DURATIONS,
  VOICE_USER_LIMIT_MAX,
} from "@/lib/discord/limits";
import { normaliseChannelName } from "@/lib/discord/channel-names";
import { Switch } from "@/components/ui/switch";
import { ChannelIcon } from "./channel-icon";
import { ReasonField } from "@/components/dashboard/reason-input";

const numberOrUndefined = (v: unknown) =>
  v === "" || v === null || v === undefined || Number.isNaN(Number(v)) ? undefined : Number(v);
const ARCHIVE_LABELS: Record<number, string> = { 60: "1 hour", 1440: "24 hours", 4320: "3 days", 10080: "1 week" };

export function CreateChannelButton({
  guildId,
  categories,
  roles,
  maxBitrate,
}: {
  guildId: string;
  categories: Array<{ id: string; name: string }>;
  /** Roles that may be let into a private channel, highest first (without @everyone). */
  roles: Array<{ id: string; name: string }>;
  maxBitrate: number;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>
        <Icons.plus className="size-4" /> Create channel
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Create channel" size="lg">
        {open && (
          <CreateChannelForm
            guildId={guildId}
            categories={categories}
            roles={roles}
            maxBitrate={maxBitrate}
            onDone={() => setOpen(false)}
          />
        )}
      </Dialog>
    </>
  );
}

function CreateChannelForm({
  guildId,
  categories,
  roles,
  maxBitrate,
  onDone,
}: {
  guildId: string;
  categories: Array<{ id: string; name: string }>;
  roles: Array<{ id: string; name: string }>;
  maxBitrate: number;
  onDone: () => void;
}) {
  const { register, handleSubmit, watch, setValue, setError, formState } = useForm<CreateChannelValues>({
    resolver: zodResolver(CreateChannelFormSchema),
    defaultValues: { type: ChannelType.GuildText, name: "", parent_id: null, private: false, private_role_ids: [] },
  });
  const errors = formState.errors as Partial<Record<string, { message?: string }>>;
  const type = watch("type");
  const applies = (field: ChannelField) => fieldAppliesTo(field, type);
  const { run, pending } = useAction(createGuildChannelAction, { failure: "Couldn't create the channel" });
  const [reason, setReason] = useState("");
  const { requestClose } = useDialogForm(formState.isDirty || reason !== "");
  const bitrateMax = type === ChannelType.GuildStageVoice ? STAGE_BITRATE_MAX : maxBitrate;
  const name = watch("name") ?? "";
  const storedName = normaliseChannelName(type, name);
  const isPrivate = watch("private") ?? false;
  const privateRoles = watch("private_role_ids") ?? [];

  const onSubmit = handleSubmit(async (values) => {
    // Only the fields of the chosen type go to the server (it drops the rest too).
    const input = Object.fromEntries(
      Object.entries(values).filter(
        ([key, value]) =>
          value !== undefined &&
          (["type", "name", "private", "private_role_ids"].includes(key) || applies(key as ChannelField)),
      ),
    ) as CreateChannelValues;
    const result = await run({ ...input, guildId, reason: reason || undefined });
    if (result.ok) onDone();
    else applyFieldErrors(setError, result.fieldErrors);
  });

  const num = (
    name: ChannelField,
    label: string,
    hint: string,
    extra: { min?: number; max?: number; placeholder?: string } = {},
  ) =>
    applies(name) && (
      <Field id={`create-${name}`} label={label} hint={hint} error={errors[name]?.message}>
        <Input
          type="number"
          inputMode="numeric"
          {...fieldProps(`create-${name}`, errors[name]?.message)}
          {...extra}
          {...register(name as "bitrate", { setValueAs: numberOrUndefined })}
        />
      </Field>
    );

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5" aria-label="Create channel">
      <fieldset>
        <legend className="mb-2 text-sm font-medium">Channel type</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {CREATABLE_CHANNEL_TYPES.map((t) => (
            <label
              key={t.type}
              className={cn(
                "flex cursor-pointer items-start gap-3 rounded-lg p-3 ring-1 ring-line hover:bg-surface-sunken has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-blurple",
                type === t.type && "bg-blurple/10 ring-2 ring-blurple",
              )}
            >
              <input
                type="radio"
                className="sr-only"
                name="type"
                value={t.type}
                checked={type === t.type}
                onChange={() => setValue("type", t.type, { shouldDirty: true })}
              />
              <ChannelIcon type={t.type} className="mt-0.5 size-5" />
              <span>
                <span className="block text-sm font-semibold">{t.label}</span>
                <span className="block text-xs text-ink-muted">{t.description}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id="create-name"
          label="Name"
          hint={
            storedName && storedName !== name.trim() ? (
              <>
                Saved as <span className="font-mono">{storedName}</span>
              </>
            ) : (
              "1 to 100 characters."
            )
          }
          error={errors.name?.message}
        >
          <Input
            {...fieldProps("create-name", errors.name?.message)}
            autoFocus
            placeholder={type === ChannelType.GuildCategory ? "New category" : "new-channel"}
            {...register("name")}
          />
        </Field>
        {applies("parent_id") && (
          <Field id="create-parent" label="Category" error={errors.parent_id?.message}>
            <Select
              {...fieldProps("create-parent")}
              {...register("parent_id", { setValueAs: (v) => (v === "" ? null : v) })}
            >
              <option value="">No category</option>
              {categories.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </Select>
          </Field>
        )}
        {applies("topic") && (
          <Field
            id="create-topic"
            label={type === ChannelType.GuildForum || type === ChannelType.GuildMedia ? "Post guidelines" : "Topic"}
            hint={`At most ${CHANNEL_TOPIC_MAX} characters.`}
            error={errors.topic?.message}
            className="sm:col-span-2"
          >
            <Textarea
              {...fieldProps("create-topic", errors.topic?.message)}
              rows={2}
              {...register("topic", { setValueAs: (v) => (v === "" ? undefined : v) })}
            />
          </Field>
        )}
        {num("bitrate", "Bitrate (bits per second)", `${BITRATE_MIN} to ${bitrateMax} on this server.`, {
          min: BITRATE_MIN,
          max: bitrateMax,
          placeholder: String(Math.min(DEFAULT_BITRATE, bitrateMax)),
        })}
        {num(
          "user_limit",
          "User limit",
          type === ChannelType.GuildVoice ? `0 (unlimited) to ${VOICE_USER_LIMIT_MAX}.` : "0 is unlimited.",
          { min: 0, placeholder: "0" },
        )}
        {num(
          "rate_limit_per_user",
          "Slowmode (seconds)",
          `0 to ${RATE_LIMIT_PER_USER_MAX}. Moderators are not affected.`,
          { min: 0, max: RATE_LIMIT_PER_USER_MAX, placeholder: "0" },
        )}
        {num("default_thread_rate_limit_per_user", "Thread slowmode (seconds)", "Copied to new threads.", {
          min: 0,
          max: RATE_LIMIT_PER_USER_MAX,
          placeholder: "0",
        })}
        {applies("video_quality_mode") && (
          <Field id="create-video" label="Video quality">
            <Select
              {...fieldProps("create-video")}
              {...register("video_quality_mode", { setValueAs: numberOrUndefined })}
            >
              <option value="">Default</option>
              <option value="1">Auto</option>
              <option value="2">720p</option>
            </Select>
          </Field>
        )}
        {applies("rtc_region") && (
          <Field id="create-region" label="Region override" hint="Empty: automatic.">
            <Input
              {...fieldProps("create-region")}
              placeholder="automatic"
              {...register("rtc_region", { setValueAs: (v) => (v === "" ? undefined : v) })}
            />
          </Field>
        )}
        {applies("default_auto_archive_duration") && (
          <Field id="create-archive" label="Hide threads after inactivity">
            <Select
              {...fieldProps("create-archive")}
              {...register("default_auto_archive_duration", { setValueAs: numberOrUndefined })}
            >
              <option value="">Default</option>
              {THREAD_AUTO_ARCHIVE_DURATIONS.map((m) => (
                <option key={m} value={m}>
                  {ARCHIVE_LABELS[m] ?? `${m} minutes`}
                </option>
              ))}
            </Select>
          </Field>
        )}
        {applies("default_forum_layout") && (
          <Field id="create-layout" label="Default layout">
            <Select
              {...fieldProps("create-layout")}
              {...register("default_forum_layout", { setValueAs: numberOrUndefined })}
            >
              <option value="">Not set</option>
              <option value="1">List view</option>
              <option value="2">Gallery view</option>
            </Select>
          </Field>
        )}
        {applies("default_sort_order") && (
          <Field id="create-sort" label="Default sort order">
            <Select
              {...fieldProps("create-sort")}
              {...register("default_sort_order", { setValueAs: numberOrUndefined })}
            >
              <option value="">Not set</option>
              <option value="0">Recent activity</option>
              <option value="1">Creation time</option>
            </Select>
          </Field>
        )}
        {applies("nsfw") && (
          <label className="flex items-center gap-2 text-sm sm:col-span-2">
            <input type="checkbox" className="size-4 accent-blurple" {...register("nsfw")} />
            Age-restricted channel (NSFW)
          </label>
        )}
      </div>
      <div className="rounded-lg px-3 ring-1 ring-line">
        <Switch
          id="create-private"
          label={type === ChannelType.GuildCategory ? "Private category" : "Private channel"}
          description="Only the roles you choose (and administrators) can view it."
          {...register("private")}
        />
        {isPrivate && (
          <fieldset className="flex flex-wrap gap-2 pb-3">
            <legend className="mb-1 text-sm font-medium">Who can view it</legend>
            {roles.map((r) => (
              <label key={r.id} className="flex items-center gap-2 rounded-md px-2 py-1 text-sm ring-1 ring-line">
                <input
                  type="checkbox"
                  className="size-4 accent-blurple"
                  checked={privateRoles.includes(r.id)}
                  onChange={(e) =>
                    setValue(
                      "private_role_ids",
                      e.target.checked ? [...privateRoles, r.id] : privateRoles.filter((x) => x !== r.id),
                      { shouldDirty: true },
                    )
                  }
                />
                {r.name}
              </label>
            ))}
          </fieldset>
        )}
      </div>
      {errors.root?.message && (
        <p role="alert" className="text-sm text-danger">
          {errors.root.message}
        </p>
      )}
      <ReasonField
        id="create-reason"
        label="Reason (optional)"
        hint="Recorded in the audit log."
        value={reason}
        onChange={setReason}
      />
      <div className="flex justify-end gap-2">
        <Button variant="ghost" onClick={requestClose}>
          Cancel
        </Button>
        <Button type="submit" pending={pending}>
          Create channel
        </Button>
      </div>
    </form>
  );
}
