"use client";

// The Modify Guild form. The zod schema is the one the server action validates with; on save only the fields that
// differ from what was loaded are sent, and the API's field errors land next to their fields.
import { useMemo, useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { ChannelType } from "discord-api-types/v10";
import { Card, CardHeader } from "@/components/ui/card";
import { Field, fieldProps } from "@/components/ui/field";
import { Input, Select, Textarea } from "@/components/ui/input";
import { Switch } from "@/components/ui/switch";
import { applyFieldErrors, useAction } from "@/components/dashboard/use-action";
import { modifyGuildAction } from "@/lib/dashboard/actions/guilds";
import {
  AFK_TIMEOUT_OPTIONS,
  EXPLICIT_CONTENT_FILTERS,
  FEATURE_TOGGLES,
  GuildSettingsSchema,
  NOTIFICATION_LEVELS,
  SYSTEM_CHANNEL_FLAG_OPTIONS,
  VERIFICATION_LEVELS,
  type GuildSettingsValues,
  type ImageField as ImageFieldName,
} from "@/lib/dashboard/actions/schemas/guilds";
import { GUILD_DESCRIPTION_MAX, GUILD_LOCALES } from "@/lib/discord/limits";
import { guildFeatureName } from "@/lib/discord/guild-feature-names";
import { LevelSelect } from "@/components/dashboard/level-select";
import { ImageField } from "./image-field";
import { SaveBarReason } from "@/components/dashboard/reason-input";
import { UnsavedChangesBar, useUnsavedChanges } from "@/components/dashboard/unsaved-changes";

interface ChannelOption {
  id: string;
  name: string;
  type: number;
  parent_id: string | null;
}

const IMAGE_FIELDS: ImageFieldName[] = ["icon", "banner", "splash", "discovery_splash"];
const FormSchema = GuildSettingsSchema.omit({ icon: true, banner: true, splash: true, discovery_splash: true });
type FormValues = Omit<GuildSettingsValues, ImageFieldName>;
const FORM_KEYS = Object.keys(FormSchema.shape) as Array<keyof FormValues>;

const LOCALE_NAMES = new Intl.DisplayNames(["en"], { type: "language" });

const nullable = (value: unknown) => (value === "" ? null : value);

/** Each field as Discord's server settings name it, for the unsaved-changes bar. */
const FIELD_NAMES: Record<string, string> = {
  name: "Server name",
  description: "Description",
  icon: "Server icon",
  banner: "Banner",
  splash: "Invite background",
  discovery_splash: "Discovery splash",
  afk_channel_id: "Inactive channel",
  afk_timeout: "Inactive timeout",
  system_channel_id: "System messages channel",
  system_channel_flags: "System messages",
  rules_channel_id: "Rules channel",
  public_updates_channel_id: "Community updates channel",
  safety_alerts_channel_id: "Safety notifications channel",
  verification_level: "Verification level",
  default_message_notifications: "Default notifications",
  explicit_content_filter: "Explicit image filter",
  preferred_locale: "Primary language",
  features: "Features",
  premium_progress_bar_enabled: "Boost progress bar",
};

export function SettingsForm({
  guildId,
  defaults,
  images,
  channels,
  featureReasons,
  manageReason,
}: {
  guildId: string;
  defaults: GuildSettingsValues;
  images: Record<ImageFieldName, string | null>;
  channels: ChannelOption[];
  featureReasons: Record<string, string | null>;
  manageReason: string | null;
}) {
  const initial = useMemo(() => Object.fromEntries(FORM_KEYS.map((k) => [k, defaults[k]])) as FormValues, [defaults]);
  const [loaded, setLoaded] = useState<FormValues>(initial);
  const form = useForm<FormValues>({ resolver: zodResolver(FormSchema), defaultValues: initial, mode: "onBlur" });
  const { register, handleSubmit, watch, setValue, setError, reset, formState } = form;
  const errors = formState.errors;
  const [imageChanges, setImageChanges] = useState<Partial<Record<ImageFieldName, string | null>>>({});
  const [imageErrors, setImageErrors] = useState<Partial<Record<ImageFieldName, string>>>({});
  const [reason, setReason] = useState("");
  const { run, pending } = useAction(modifyGuildAction, { failure: "Couldn't save the settings" });

  const values = watch();
  const changed = FORM_KEYS.filter((key) => JSON.stringify(values[key]) !== JSON.stringify(loaded[key]));
  const dirty = changed.length > 0 || Object.keys(imageChanges).length > 0;
  const disabled = Boolean(manageReason);
  useUnsavedChanges(dirty);

  const textChannels = channels.filter(
    (c) => c.type === ChannelType.GuildText || c.type === ChannelType.GuildAnnouncement,
  );
  const voiceChannels = channels.filter(
    (c) => c.type === ChannelType.GuildVoice || c.type === ChannelType.GuildStageVoice,
  );
  const features = values.features ?? [];

  const onSubmit = handleSubmit(async (data) => {
    const changes: Record<string, unknown> = {};
    for (const key of FORM_KEYS)
      if (JSON.stringify(data[key]) !== JSON.stringify(loaded[key])) changes[key] = data[key];
    Object.assign(changes, imageChanges);
    if (Object.keys(changes).length === 0) return;
    const result = await run({ guildId, reason: reason || undefined, ...changes });
    if (result.ok) {
      const next = { ...data };
      setLoaded(next);
      reset(next);
      setImageChanges({});
      setImageErrors({});
      setReason("");
    } else {
      applyFieldErrors(
        setError,
        Object.fromEntries(
          Object.entries(result.fieldErrors).filter(([k]) => !IMAGE_FIELDS.includes(k as ImageFieldName)),
        ),
        FORM_KEYS as string[],
      );
      setImageErrors(
        Object.fromEntries(
          Object.entries(result.fieldErrors)
            .filter(([k]) => IMAGE_FIELDS.includes(k as ImageFieldName))
            .map(([k, v]) => [k, v.join(" ")]),
        ),
      );
    }
  });

  const channelSelect = (
    name:
      | "system_channel_id"
      | "rules_channel_id"
      | "public_updates_channel_id"
      | "safety_alerts_channel_id"
      | "afk_channel_id",
    label: string,
    hint: string,
    options: ChannelOption[],
  ) => (
    <Field id={name} label={label} hint={hint} error={errors[name]?.message}>
      <Select
        {...fieldProps(name, errors[name]?.message)}
        disabled={disabled}
        {...register(name, { setValueAs: nullable })}
      >
        <option value="">No channel</option>
        {options.map((c) => (
          <option key={c.id} value={c.id}>
            {c.type === ChannelType.GuildVoice || c.type === ChannelType.GuildStageVoice ? c.name : `#${c.name}`}
          </option>
        ))}
      </Select>
    </Field>
  );

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-6 pb-28" aria-label="Server settings">
      {manageReason && (
        <p role="note" className="rounded-md border border-warning/50 bg-warning/10 p-3 text-sm">
          Read only: changing settings {manageReason}.
        </p>
      )}
      {errors.root?.server && (
        <p role="alert" className="rounded-md border border-danger/40 bg-danger/10 p-3 text-sm">
          {errors.root.server.message}
        </p>
      )}

      <Card>
        <CardHeader title="Server profile" description="How the server appears to members and in invites." />
        <div className="grid grid-cols-1 gap-5 md:grid-cols-2">
          <Field id="name" label="Server name" hint="2 to 100 characters." error={errors.name?.message}>
            <Input
              {...fieldProps("name", errors.name?.message)}
              disabled={disabled}
              autoComplete="off"
              {...register("name")}
            />
          </Field>
          <Field
            id="preferred_locale"
            label="Primary language"
            hint="Used for Discovery and Community notices."
            error={errors.preferred_locale?.message}
          >
            <Select {...fieldProps("preferred_locale")} disabled={disabled} {...register("preferred_locale")}>
              {GUILD_LOCALES.map((locale) => (
                <option key={locale} value={locale}>
                  {LOCALE_NAMES.of(locale) ?? locale} ({locale})
                </option>
              ))}
            </Select>
          </Field>
          <Field
            id="description"
            label="Description"
            hint={`Shown in Discovery and invites. At most ${GUILD_DESCRIPTION_MAX} characters.`}
            error={errors.description?.message}
            className="md:col-span-2"
          >
            <Textarea
              {...fieldProps("description", errors.description?.message)}
              disabled={disabled}
              rows={3}
              {...register("description", { setValueAs: nullable })}
            />
          </Field>
        </div>
        <div className="mt-6 grid grid-cols-1 gap-6 md:grid-cols-2">
          {IMAGE_FIELDS.map((field) => (
            <ImageField
              key={field}
              field={field}
              currentUrl={images[field]}
              value={imageChanges[field]}
              features={features}
              disabled={disabled}
              error={imageErrors[field]}
              onChange={(value) =>
                setImageChanges((all) => {
                  const next = { ...all };
                  if (value === undefined) delete next[field];
                  else next[field] = value;
                  return next;
                })
              }
            />
          ))}
        </div>
      </Card>

      <Card>
        <CardHeader
          title="System messages"
          description="Where Discord posts welcome and boost notices, and which ones."
        />
        <div className="grid grid-cols-1 gap-5 md:grid-cols-2">
          {channelSelect(
            "system_channel_id",
            "System messages channel",
            "Welcome, boost and setup-tip messages go here.",
            textChannels,
          )}
          <fieldset className="flex min-w-0 flex-col gap-1 md:col-span-2" disabled={disabled}>
            <legend className="mb-1 text-sm font-medium">Messages to send</legend>
            {SYSTEM_CHANNEL_FLAG_OPTIONS.map((option) => {
              const suppressed = (values.system_channel_flags & option.flag) !== 0;
              return (
                <label
                  key={option.name}
                  className="flex items-start gap-3 rounded-md px-2 py-1.5 hover:bg-surface-sunken"
                >
                  <input
                    type="checkbox"
                    className="mt-0.5 size-4 accent-blurple"
                    checked={!suppressed}
                    onChange={(e) =>
                      setValue(
                        "system_channel_flags",
                        e.target.checked
                          ? values.system_channel_flags & ~option.flag
                          : values.system_channel_flags | option.flag,
                        { shouldDirty: true },
                      )
                    }
                  />
                  <span className="text-sm">{option.label}</span>
                </label>
              );
            })}
          </fieldset>
        </div>
      </Card>

      <Card>
        <CardHeader title="Channels" description="Channels with a special role in the server." />
        <div className="grid grid-cols-1 gap-5 md:grid-cols-2">
          {channelSelect(
            "rules_channel_id",
            "Rules or guidelines channel",
            "Community servers show it to new members.",
            textChannels,
          )}
          {channelSelect(
            "public_updates_channel_id",
            "Community updates channel",
            "Discord sends moderator-only notices here.",
            textChannels,
          )}
          {channelSelect(
            "safety_alerts_channel_id",
            "Safety notifications channel",
            "Raid and spam alerts go here.",
            textChannels,
          )}
          {channelSelect("afk_channel_id", "Inactive channel", "Idle members in voice are moved here.", voiceChannels)}
          <Field
            id="afk_timeout"
            label="Inactive timeout"
            hint="How long someone may be idle in voice before moving."
            error={errors.afk_timeout?.message}
          >
            <Select
              {...fieldProps("afk_timeout")}
              disabled={disabled}
              {...register("afk_timeout", { setValueAs: Number })}
            >
              {AFK_TIMEOUT_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </Select>
          </Field>
        </div>
      </Card>

      <Card>
        <CardHeader
          title="Safety and notifications"
          description="Who can talk, what gets scanned, and default notifications."
        />
        <div className="grid grid-cols-1 gap-5 md:grid-cols-3">
          {LEVEL_SELECTS.map((select) => (
            <LevelSelect
              key={select.name}
              id={select.name}
              label={select.label}
              options={select.options}
              current={values[select.name]}
              disabled={disabled}
              {...register(select.name, { setValueAs: Number })}
            />
          ))}
        </div>
      </Card>

      <Card>
        <CardHeader
          title="Features"
          description="Server features you can switch on or off, and the permission each takes."
        />
        <div className="divide-y divide-line">
          {FEATURE_TOGGLES.map((toggle) => {
            const reason = featureReasons[toggle.feature] ?? manageReason;
            return (
              <Switch
                key={toggle.feature}
                id={`feature-${toggle.feature}`}
                label={toggle.label}
                description={toggle.description}
                reason={reason}
                disabled={Boolean(reason)}
                checked={features.includes(toggle.feature)}
                onChange={(e) =>
                  setValue(
                    "features",
                    e.target.checked ? [...features, toggle.feature] : features.filter((f) => f !== toggle.feature),
                    { shouldDirty: true },
                  )
                }
              />
            );
          })}
          <Switch
            id="premium_progress_bar_enabled"
            label="Show the Boost progress bar"
            description="Displayed in the channel list."
            disabled={disabled}
            {...register("premium_progress_bar_enabled")}
          />
        </div>
        <p className="mt-3 text-xs text-ink-muted">
          Other features:{" "}
          {features
            .filter((f) => !FEATURE_TOGGLES.some((t) => t.feature === f))
            .map(guildFeatureName)
            .join(", ") || "none"}
          .
        </p>
      </Card>

      {dirty && (
        <UnsavedChangesBar
          pending={pending}
          saveDisabled={disabled}
          summary={`Changed: ${[...changed, ...Object.keys(imageChanges)].map((key) => FIELD_NAMES[key] ?? key).join(", ")}`}
          onReset={() => {
            reset(loaded);
            setImageChanges({});
            setImageErrors({});
          }}
        >
          <SaveBarReason value={reason} onChange={setReason} />
        </UnsavedChangesBar>
      )}
    </form>
  );
}

/** The safety card's three level pickers, each a Discord enum with the meaning of the chosen value as its hint. */
const LEVEL_SELECTS = [
  { name: "verification_level", label: "Verification level", options: VERIFICATION_LEVELS },
  { name: "explicit_content_filter", label: "Explicit image filter", options: EXPLICIT_CONTENT_FILTERS },
  { name: "default_message_notifications", label: "Default notifications", options: NOTIFICATION_LEVELS },
] as const;
