"use client";

// Overview: every Modify Channel field the channel's type takes, with Discord's controls and limits. The name shows
// as Discord will store it while it is typed; Save sends only the fields that differ from what was loaded.
import { useState } from "react";
import { useForm, type Resolver } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { ChannelType } from "discord-api-types/v10";
import { Button } from "@/components/ui/button";
import { Card, CardHeader, DisabledReason } from "@/components/ui/card";
import { Field, fieldProps } from "@/components/ui/field";
import { Input, Select, Textarea } from "@/components/ui/input";
import { Switch } from "@/components/ui/switch";
import { applyFieldErrors, useAction } from "@/components/dashboard/use-action";
import { ReasonInput } from "@/components/dashboard/reason-input";
import { EmojiPicker, type GuildEmoji } from "@/components/dashboard/emoji-picker";
import { modifyChannelAction } from "@/lib/dashboard/actions/channel-settings";
import {
  ChannelSettingsSchema,
  REQUIRE_TAG_FLAG,
  SLOWMODE_STEPS,
  topicMax,
  type ChannelSettingsField,
  type ChannelSettingsValues,
} from "@/lib/dashboard/actions/schemas/channel-settings";
import { fieldAppliesTo, type ChannelField } from "@/lib/dashboard/actions/schemas/channels";
import { normaliseChannelName } from "@/lib/discord/channel-names";
import {
  BITRATE_MIN,
  FORUM_TAG_NAME_MAX,
  FORUM_TAGS_MAX,
  STAGE_USER_LIMIT_MAX,
  THREAD_AUTO_ARCHIVE_DURATIONS,
  VOICE_USER_LIMIT_MAX,
} from "@/lib/discord/limits";

const ARCHIVE_LABELS: Record<number, string> = { 60: "1 hour", 1440: "24 hours", 4320: "3 days", 10080: "1 week" };

export function slowmodeLabel(seconds: number): string {
  if (seconds === 0) return "Off";
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${seconds / 60}m`;
  return `${seconds / 3600}h`;
}

export interface OverviewFormProps {
  guildId: string;
  channelId: string;
  type: number;
  values: ChannelSettingsValues;
  maxBitrate: number;
  /** Announcement channels need NEWS or COMMUNITY: null when the guild has neither. */
  canConvert: boolean;
  regions: Array<{ id: string; name: string }>;
  emojis: GuildEmoji[];
  /** Why the moderator may not edit this channel; null when they may. */
  refusal: string | null;
}

/** The fields a type shows: the spec's table plus the forum extras (tags, reaction, flags) and conversion. */
function shows(field: ChannelSettingsField, type: number): boolean {
  const T = ChannelType;
  if (field === "name") return true;
  if (field === "type") return type === T.GuildText || type === T.GuildAnnouncement;
  if (field === "available_tags" || field === "default_reaction_emoji" || field === "flags")
    return type === T.GuildForum || type === T.GuildMedia;
  return fieldAppliesTo(field as ChannelField, type);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function OverviewForm(props: OverviewFormProps) {
  const { guildId, channelId, type, values, maxBitrate, canConvert, regions, emojis, refusal } = props;
  const { register, handleSubmit, watch, setValue, setError, reset, formState } = useForm<ChannelSettingsValues>({
    // A channel shows only its type's fields: the others are absent, not invalid.
    resolver: zodResolver(ChannelSettingsSchema.partial()) as unknown as Resolver<ChannelSettingsValues>,
    defaultValues: values,
  });
  const errors = formState.errors as Partial<Record<string, { message?: string }>>;
  const { run, pending } = useAction(modifyChannelAction, { failure: "Couldn't save the channel" });
  const [reason, setReason] = useState("");
  const current = watch();
  const has = (field: ChannelSettingsField) => shows(field, type) && field in values;
  const T = ChannelType;
  const isForum = type === T.GuildForum || type === T.GuildMedia;
  const isVoice = type === T.GuildVoice || type === T.GuildStageVoice;
  const changed = (Object.keys(values) as ChannelSettingsField[]).filter(
    (field) => has(field) && !same(normalise(field, current[field]), normalise(field, values[field])),
  );
  const disabled = refusal !== null;

  function normalise(field: ChannelSettingsField, value: unknown): unknown {
    if (field === "name" && typeof value === "string") return normaliseChannelName(Number(current.type ?? type), value);
    return value;
  }

  const onSubmit = handleSubmit(async (submitted) => {
    const changes = Object.fromEntries(
      changed.map((field) => [field, submitted[field]]),
    ) as Partial<ChannelSettingsValues>;
    if (changes.name !== undefined) changes.name = changes.name.trim();
    const result = await run({ guildId, channelId, channelType: type, changes, reason: reason || undefined });
    if (result.ok) {
      setReason("");
      reset(submitted);
    } else applyFieldErrors(setError, result.fieldErrors, Object.keys(values));
  });

  const storedName = normaliseChannelName(Number(current.type ?? type), current.name ?? "");
  const bitrateMax = type === T.GuildStageVoice ? 64_000 : maxBitrate;
  const tags = current.available_tags ?? [];

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Channel overview" className="flex flex-col gap-6">
      {refusal && <DisabledReason reason={`Read-only: ${refusal}`} />}
      <fieldset disabled={disabled} className="flex flex-col gap-6">
        <Card>
          <CardHeader title="Overview" />
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              id="channel-name"
              label="Channel name"
              hint={
                storedName !== current.name?.trim() && storedName ? (
                  <>
                    Saved as <span className="font-mono">{storedName}</span>
                  </>
                ) : (
                  "1 to 100 characters."
                )
              }
              error={errors.name?.message}
            >
              <Input {...fieldProps("channel-name", errors.name?.message)} {...register("name")} />
            </Field>
            {has("type") && (
              <Switch
                id="channel-announcement"
                label="Announcement channel"
                description="Members can follow it to get its posts in their own servers."
                reason={canConvert ? null : "needs the Community or News feature"}
                disabled={!canConvert}
                checked={current.type === T.GuildAnnouncement}
                onChange={(e) =>
                  setValue("type", e.target.checked ? T.GuildAnnouncement : T.GuildText, { shouldDirty: true })
                }
              />
            )}
            {has("topic") && (
              <Field
                id="channel-topic"
                label={isForum ? "Post guidelines" : "Channel topic"}
                hint={`${(current.topic ?? "").length} / ${topicMax(type)} characters.`}
                error={errors.topic?.message}
                className="sm:col-span-2"
              >
                <Textarea
                  {...fieldProps("channel-topic", errors.topic?.message)}
                  rows={3}
                  maxLength={topicMax(type)}
                  {...register("topic")}
                />
              </Field>
            )}
            {has("rate_limit_per_user") && (
              <Field
                id="channel-slowmode"
                label={isForum ? "Post creation slowmode" : "Slowmode"}
                hint="How long members wait between messages. Moderators are not affected."
              >
                <Select
                  {...fieldProps("channel-slowmode")}
                  {...register("rate_limit_per_user", { setValueAs: Number })}
                >
                  {withCurrent(SLOWMODE_STEPS, values.rate_limit_per_user).map((s) => (
                    <option key={s} value={s}>
                      {slowmodeLabel(s)}
                    </option>
                  ))}
                </Select>
              </Field>
            )}
            {has("default_thread_rate_limit_per_user") && (
              <Field
                id="channel-thread-slowmode"
                label={isForum ? "Slowmode in posts" : "Default thread slowmode"}
                hint="Copied to new threads when they are created."
              >
                <Select
                  {...fieldProps("channel-thread-slowmode")}
                  {...register("default_thread_rate_limit_per_user", { setValueAs: Number })}
                >
                  {withCurrent(SLOWMODE_STEPS, values.default_thread_rate_limit_per_user).map((s) => (
                    <option key={s} value={s}>
                      {slowmodeLabel(s)}
                    </option>
                  ))}
                </Select>
              </Field>
            )}
            {has("default_auto_archive_duration") && (
              <Field id="channel-archive" label="Hide after inactivity" hint="Threads' default auto-archive time.">
                <Select
                  {...fieldProps("channel-archive")}
                  {...register("default_auto_archive_duration", {
                    setValueAs: (v) => (v === "" || v === null ? null : Number(v)),
                  })}
                >
                  <option value="">Default (24 hours)</option>
                  {THREAD_AUTO_ARCHIVE_DURATIONS.map((m) => (
                    <option key={m} value={m}>
                      {ARCHIVE_LABELS[m]}
                    </option>
                  ))}
                </Select>
              </Field>
            )}
            {has("nsfw") && (
              <div className="sm:col-span-2">
                <Switch
                  id="channel-nsfw"
                  label="Age-restricted channel"
                  description="Members must confirm they are over the legal age to view its content."
                  {...register("nsfw")}
                />
              </div>
            )}
          </div>
        </Card>

        {isVoice && (
          <Card>
            <CardHeader title={type === T.GuildStageVoice ? "Stage" : "Voice"} />
            <div className="grid gap-4 sm:grid-cols-2">
              {has("bitrate") && (
                <Field
                  id="channel-bitrate"
                  label={`Bitrate: ${Math.round((current.bitrate ?? 0) / 1000)} kbps`}
                  hint={`${BITRATE_MIN / 1000} to ${bitrateMax / 1000} kbps on this server's boost level.`}
                  error={errors.bitrate?.message}
                >
                  <input
                    type="range"
                    {...fieldProps("channel-bitrate", errors.bitrate?.message)}
                    min={BITRATE_MIN}
                    max={bitrateMax}
                    step={1000}
                    className="accent-blurple"
                    {...register("bitrate", { setValueAs: Number })}
                  />
                </Field>
              )}
              {has("user_limit") && (
                <Field
                  id="channel-user-limit"
                  label={`User limit: ${current.user_limit ? current.user_limit : "no limit"}`}
                  hint={`0 (no limit) to ${type === T.GuildVoice ? VOICE_USER_LIMIT_MAX : STAGE_USER_LIMIT_MAX}.`}
                  error={errors.user_limit?.message}
                >
                  <Input
                    type="number"
                    inputMode="numeric"
                    min={0}
                    max={type === T.GuildVoice ? VOICE_USER_LIMIT_MAX : STAGE_USER_LIMIT_MAX}
                    {...fieldProps("channel-user-limit", errors.user_limit?.message)}
                    {...register("user_limit", { setValueAs: Number })}
                  />
                </Field>
              )}
              {has("rtc_region") && (
                <Field id="channel-region" label="Region override" hint="Automatic picks the best region per call.">
                  <Select
                    {...fieldProps("channel-region")}
                    {...register("rtc_region", { setValueAs: (v) => (v === "" ? null : v) })}
                  >
                    <option value="">Automatic</option>
                    {regions.map((r) => (
                      <option key={r.id} value={r.id}>
                        {r.name}
                      </option>
                    ))}
                  </Select>
                </Field>
              )}
              {has("video_quality_mode") && (
                <Field id="channel-video" label="Video quality">
                  <Select {...fieldProps("channel-video")} {...register("video_quality_mode", { setValueAs: Number })}>
                    <option value={1}>Auto</option>
                    <option value={2}>720p</option>
                  </Select>
                </Field>
              )}
            </div>
          </Card>
        )}

        {isForum && (
          <Card>
            <CardHeader title={type === T.GuildMedia ? "Media" : "Forum"} description="How posts look and sort." />
            <div className="grid gap-4 sm:grid-cols-2">
              {has("default_forum_layout") && (
                <Field id="channel-layout" label="Default layout">
                  <Select
                    {...fieldProps("channel-layout")}
                    {...register("default_forum_layout", { setValueAs: Number })}
                  >
                    <option value={0}>Not set</option>
                    <option value={1}>List view</option>
                    <option value={2}>Gallery view</option>
                  </Select>
                </Field>
              )}
              {has("default_sort_order") && (
                <Field id="channel-sort" label="Default sort order">
                  <Select
                    {...fieldProps("channel-sort")}
                    {...register("default_sort_order", {
                      setValueAs: (v) => (v === "" || v === null ? null : Number(v)),
                    })}
                  >
                    <option value="">Not set</option>
                    <option value={0}>Recent activity</option>
                    <option value={1}>Creation time</option>
                  </Select>
                </Field>
              )}
              {has("default_reaction_emoji") && (
                <div className="flex flex-col gap-1.5">
                  <span className="text-sm font-medium">Default reaction</span>
                  <EmojiPicker
                    id="channel-reaction"
                    label="Default reaction"
                    emojis={emojis}
                    value={current.default_reaction_emoji ?? { emoji_id: null, emoji_name: null }}
                    onChange={(v) =>
                      setValue("default_reaction_emoji", v.emoji_id || v.emoji_name ? v : null, { shouldDirty: true })
                    }
                  />
                </div>
              )}
              {has("flags") && (
                <Switch
                  id="channel-require-tag"
                  label="Require people to select tags when posting"
                  checked={((current.flags ?? 0) & REQUIRE_TAG_FLAG) !== 0}
                  onChange={(e) =>
                    setValue(
                      "flags",
                      e.target.checked
                        ? (current.flags ?? 0) | REQUIRE_TAG_FLAG
                        : (current.flags ?? 0) & ~REQUIRE_TAG_FLAG,
                      { shouldDirty: true },
                    )
                  }
                />
              )}
            </div>
            {has("available_tags") && (
              <fieldset className="mt-4 flex flex-col gap-2">
                <legend className="text-sm font-medium">
                  Tags ({tags.length} / {FORUM_TAGS_MAX})
                </legend>
                {errors.available_tags?.message && (
                  <p role="alert" className="text-xs text-danger">
                    {errors.available_tags.message}
                  </p>
                )}
                <ul className="flex flex-col gap-2">
                  {tags.map((tag, index) => (
                    <li
                      key={tag.id ?? `new-${index}`}
                      className="grid grid-cols-[4rem_minmax(0,14rem)] items-center gap-2 sm:grid-cols-[4rem_minmax(0,14rem)_auto_auto]"
                    >
                      <Input
                        aria-label={`Tag ${index + 1} emoji`}
                        className="text-center"
                        placeholder="🙂"
                        value={tag.emoji_id ? "" : (tag.emoji_name ?? "")}
                        onChange={(e) =>
                          setValue(`available_tags.${index}.emoji_name`, e.target.value || null, { shouldDirty: true })
                        }
                      />
                      <Input
                        aria-label={`Tag ${index + 1} name`}
                        maxLength={FORUM_TAG_NAME_MAX}
                        {...register(`available_tags.${index}.name`)}
                      />
                      <label className="flex items-center gap-2 text-sm">
                        <input
                          type="checkbox"
                          className="size-4 accent-blurple"
                          {...register(`available_tags.${index}.moderated`)}
                        />
                        Only moderators can apply
                      </label>
                      <Button
                        size="sm"
                        variant="ghost"
                        aria-label={`Remove tag ${tag.name || index + 1}`}
                        onClick={() =>
                          setValue(
                            "available_tags",
                            tags.filter((_, i) => i !== index),
                            { shouldDirty: true },
                          )
                        }
                      >
                        Remove
                      </Button>
                    </li>
                  ))}
                </ul>
                <div>
                  <Button
                    size="sm"
                    variant="secondary"
                    disabled={tags.length >= FORUM_TAGS_MAX}
                    onClick={() =>
                      setValue(
                        "available_tags",
                        [...tags, { name: "new tag", moderated: false, emoji_id: null, emoji_name: null }],
                        { shouldDirty: true },
                      )
                    }
                  >
                    Add tag
                  </Button>
                </div>
              </fieldset>
            )}
          </Card>
        )}
      </fieldset>

      {formState.errors.root?.server?.message && (
        <p role="alert" className="text-sm text-danger">
          {formState.errors.root.server.message}
        </p>
      )}
      {changed.length > 0 && !disabled && (
        <div
          role="region"
          aria-label="Unsaved channel settings"
          className="sticky bottom-0 z-10 flex flex-wrap items-center gap-3 rounded-lg bg-surface-raised p-3 shadow-lg ring-1 ring-blurple/40"
        >
          <p className="text-sm font-medium">
            {changed.length} unsaved change{changed.length === 1 ? "" : "s"}.
          </p>
          <ReasonInput label="Reason (audit log)" value={reason} onChange={setReason} className="h-9 max-w-72" />
          <div className="ml-auto flex gap-2">
            <Button variant="ghost" onClick={() => reset(values)}>
              Reset
            </Button>
            <Button type="submit" pending={pending}>
              Save changes
            </Button>
          </div>
        </div>
      )}
    </form>
  );
}

/** Discord's steps, plus the channel's own value when it is not one of them (set by a bot, say). */
function withCurrent(steps: readonly number[], current: number | undefined): number[] {
  return current === undefined || steps.includes(current) ? [...steps] : [...steps, current].sort((a, b) => a - b);
}
