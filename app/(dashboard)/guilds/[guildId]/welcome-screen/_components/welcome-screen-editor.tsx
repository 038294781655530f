"use client";

// Modify Guild Welcome Screen: on or off, a description, and up to five channels each with a description and an
// emoji; the preview follows every keystroke. The zod schema is the action's.
import { useState } from "react";
import { useFieldArray, useForm } from "react-hook-form";
import { useUnsavedChanges } from "@/components/dashboard/unsaved-changes";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Field, fieldProps } from "@/components/ui/field";
import { Icons } from "@/components/ui/icons";
import { Input, Select, Textarea } from "@/components/ui/input";
import { Switch } from "@/components/ui/switch";
import { EmojiPicker, type GuildEmoji } from "@/components/dashboard/emoji-picker";
import { applyFieldErrors, useAction } from "@/components/dashboard/use-action";
import { modifyGuildWelcomeScreenAction } from "@/lib/dashboard/actions/welcome-screen";
import { WelcomeScreenSchema, type WelcomeScreenValues } from "@/lib/dashboard/actions/schemas/welcome-screen";
import {
  WELCOME_CHANNEL_DESCRIPTION_LENGTH,
  WELCOME_CHANNELS_MAX,
  WELCOME_DESCRIPTION_MAX,
} from "@/lib/discord/limits";
import { WelcomePreview } from "./welcome-preview";
import { AUDIT_LOG_REASON_PROPS, ReasonInput } from "@/components/dashboard/reason-input";

const FIELDS = ["enabled", "description", "welcome_channels"];

export function WelcomeScreenEditor({
  guild,
  defaults,
  channels,
  emojis,
  enableReason,
}: {
  guild: { id: string; name: string; iconUrl: string | null };
  defaults: WelcomeScreenValues;
  channels: Array<{ id: string; name: string }>;
  emojis: GuildEmoji[];
  /** Why the welcome screen cannot be turned on (not a Community server), or null. */
  enableReason: string | null;
}) {
  const form = useForm<WelcomeScreenValues>({
    resolver: zodResolver(WelcomeScreenSchema),
    defaultValues: defaults,
    mode: "onChange",
  });
  const { register, control, handleSubmit, setError, setValue, reset, watch, formState } = form;
  const errors = formState.errors;
  const list = useFieldArray({ control, name: "welcome_channels" });
  const [reason, setReason] = useState("");
  const { run, pending } = useAction(modifyGuildWelcomeScreenAction, { failure: "Couldn't save the welcome screen" });
  const values = watch();
  useUnsavedChanges(formState.isDirty);
  const channelNames = Object.fromEntries(channels.map((c) => [c.id, c.name]));
  const unused = channels.find((c) => !values.welcome_channels.some((w) => w.channel_id === c.id));

  const onSubmit = handleSubmit(async (data) => {
    const result = await run({ guildId: guild.id, reason: reason || undefined, ...data });
    if (result.ok) {
      reset(data);
      setReason("");
    } else applyFieldErrors(setError, result.fieldErrors, FIELDS);
  });

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Welcome screen"
      className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_440px]"
    >
      <div className="flex min-w-0 flex-col gap-6">
        {errors.root?.server && (
          <p role="alert" className="rounded-md border border-danger/40 bg-danger/10 p-3 text-sm">
            {errors.root.server.message}
          </p>
        )}
        <Card>
          <CardHeader
            title="Welcome screen"
            description="Shown to new members of a Community server before they see the channels."
          />
          <Switch
            id="welcome-enabled"
            label="Show the welcome screen"
            description="Needs the Community feature."
            reason={values.enabled ? null : enableReason}
            disabled={!values.enabled && Boolean(enableReason)}
            {...register("enabled")}
          />
          <Field
            id="description"
            label="Server description"
            hint={`What the server is about. At most ${WELCOME_DESCRIPTION_MAX} characters (${[...(values.description ?? "")].length} used).`}
            error={errors.description?.message}
            className="mt-3"
          >
            <Textarea
              {...fieldProps("description", errors.description?.message)}
              rows={3}
              {...register("description")}
            />
          </Field>
        </Card>

        <Card>
          <CardHeader
            title={`Suggested channels (${list.fields.length} of ${WELCOME_CHANNELS_MAX})`}
            description="Where new members should start. Each needs a short description."
            actions={
              <Button
                size="sm"
                variant="secondary"
                disabled={list.fields.length >= WELCOME_CHANNELS_MAX || !unused}
                onClick={() =>
                  unused && list.append({ channel_id: unused.id, description: "", emoji_id: null, emoji_name: null })
                }
              >
                <Icons.plus className="size-4" /> Add channel
              </Button>
            }
          />
          {errors.welcome_channels?.message && (
            <p role="alert" className="mb-3 text-xs font-medium text-danger">
              {errors.welcome_channels.message}
            </p>
          )}
          {list.fields.length === 0 ? (
            <p className="rounded-md border border-dashed border-line p-6 text-center text-sm text-ink-muted">
              No channels yet. Add up to {WELCOME_CHANNELS_MAX}.
            </p>
          ) : (
            <ol className="flex flex-col gap-3">
              {list.fields.map((field, index) => {
                const e = errors.welcome_channels?.[index];
                const n = index + 1;
                return (
                  <li
                    key={field.id}
                    className="grid grid-cols-1 gap-3 rounded-md p-3 ring-1 ring-line sm:grid-cols-[minmax(0,1fr)_minmax(0,1.4fr)]"
                    aria-label={`Welcome channel ${n}`}
                  >
                    <Field
                      id={`welcome_channels.${index}.channel_id`}
                      label={`Channel ${n}`}
                      error={e?.channel_id?.message}
                    >
                      <Select
                        {...fieldProps(`welcome_channels.${index}.channel_id`, e?.channel_id?.message)}
                        {...register(`welcome_channels.${index}.channel_id`)}
                      >
                        {channels.map((c) => (
                          <option key={c.id} value={c.id}>
                            #{c.name}
                          </option>
                        ))}
                      </Select>
                    </Field>
                    <Field
                      id={`welcome_channels.${index}.description`}
                      label={`Description ${n}`}
                      hint={`${WELCOME_CHANNEL_DESCRIPTION_LENGTH.min} to ${WELCOME_CHANNEL_DESCRIPTION_LENGTH.max} characters.`}
                      error={e?.description?.message}
                    >
                      <Input
                        {...fieldProps(`welcome_channels.${index}.description`, e?.description?.message)}
                        {...register(`welcome_channels.${index}.description`)}
                      />
                    </Field>
                    <Field
                      id={`welcome_channels.${index}.emoji`}
                      label={`Emoji ${n}`}
                      error={e?.emoji_name?.message ?? e?.emoji_id?.message}
                    >
                      <EmojiPicker
                        id={`welcome_channels.${index}.emoji`}
                        label={`Emoji ${n}`}
                        value={{
                          emoji_id: values.welcome_channels[index]?.emoji_id ?? null,
                          emoji_name: values.welcome_channels[index]?.emoji_name ?? null,
                        }}
                        emojis={emojis}
                        error={e?.emoji_name?.message}
                        onChange={(emoji) => {
                          // Field by field: the typed description and channel stay as they are.
                          setValue(`welcome_channels.${index}.emoji_id`, emoji.emoji_id, {
                            shouldDirty: true,
                            shouldValidate: true,
                          });
                          setValue(`welcome_channels.${index}.emoji_name`, emoji.emoji_name, {
                            shouldDirty: true,
                            shouldValidate: true,
                          });
                        }}
                      />
                    </Field>
                    <div className="flex items-end justify-end gap-1">
                      <Button
                        size="sm"
                        variant="ghost"
                        aria-label={`Move channel ${n} up`}
                        disabled={index === 0}
                        onClick={() => list.move(index, index - 1)}
                      >
                        <Icons.chevronDown className="size-4 rotate-180" />
                      </Button>
                      <Button
                        size="sm"
                        variant="ghost"
                        aria-label={`Move channel ${n} down`}
                        disabled={index === list.fields.length - 1}
                        onClick={() => list.move(index, index + 1)}
                      >
                        <Icons.chevronDown className="size-4" />
                      </Button>
                      <Button size="sm" variant="ghost" className="text-danger" onClick={() => list.remove(index)}>
                        Remove
                      </Button>
                    </div>
                  </li>
                );
              })}
            </ol>
          )}
        </Card>

        <div className="flex flex-wrap items-center gap-3">
          <ReasonInput {...AUDIT_LOG_REASON_PROPS} value={reason} onChange={setReason} className="max-w-sm flex-1" />
          <Button variant="ghost" disabled={!formState.isDirty} onClick={() => reset()}>
            Reset
          </Button>
          <Button type="submit" pending={pending} disabled={!formState.isDirty}>
            Save welcome screen
          </Button>
        </div>
      </div>
      <div className="xl:sticky xl:top-6 xl:self-start">
        <p className="mb-2 text-sm font-medium">Preview</p>
        <WelcomePreview guild={guild} values={values} channelNames={channelNames} />
      </div>
    </form>
  );
}
