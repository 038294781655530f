"use client";

// Modify Guild Onboarding: the enable switch, mode, default channels and questions, with the enabling rules checked
// live (lib/discord/onboarding-rules, @everyone's permissions from the shared engine). Enabling is not sent until the
// rules are met; the API checks them again and its field errors land here too.
import { useMemo, useState } from "react";
import { useFieldArray, useForm } from "react-hook-form";
import { UnsavedChangesBar, useUnsavedChanges } from "@/components/dashboard/unsaved-changes";
import { zodResolver } from "@hookform/resolvers/zod";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Icons } from "@/components/ui/icons";
import { Switch } from "@/components/ui/switch";
import type { GuildEmoji } from "@/components/dashboard/emoji-picker";
import { applyFieldErrors, useAction } from "@/components/dashboard/use-action";
import { modifyGuildOnboardingAction } from "@/lib/dashboard/actions/onboarding";
import {
  ONBOARDING_MODES,
  OnboardingSchema,
  onboardingValues,
  type OnboardingValues,
} from "@/lib/dashboard/actions/schemas/onboarding";
import type { ChannelWithOverwrites } from "@/lib/dashboard/data/community";
import { ONBOARDING_PROMPTS_MAX } from "@/lib/discord/limits";
import {
  ONBOARDING_CHANNEL_TYPES,
  checkOnboardingRules,
  everyoneAccess,
  type OnboardingRuleChannel,
} from "@/lib/discord/onboarding-rules";
import type { GuildPermissionContext } from "@/lib/discord/permissions";
import { newSnowflake } from "@/lib/discord/snowflake";
import type { ChipItem } from "./chip-picker";
import { PromptEditor, newOption } from "./prompt-editor";
import { RuleChecker } from "./rule-checker";
import { SaveBarReason } from "@/components/dashboard/reason-input";

export interface WireRole {
  id: string;
  position: number;
  permissions: string;
}

const FIELDS = ["enabled", "mode", "default_channel_ids", "prompts"];
const ACCESS_HINTS = {
  chat: "@everyone can view the channel and send messages: counts toward the 5",
  "read-only": "@everyone can view but not send messages",
  hidden: "@everyone cannot view the channel",
} as const;

export function OnboardingEditor({
  guild,
  defaults,
  channels,
  roles,
  assignableRoles,
  emojis,
}: {
  guild: { id: string; ownerId: string };
  defaults: OnboardingValues;
  channels: ChannelWithOverwrites[];
  roles: WireRole[];
  assignableRoles: ChipItem[];
  emojis: GuildEmoji[];
}) {
  // Bitfields travel as strings; the engine works on BigInt.
  const context = useMemo<GuildPermissionContext>(
    () => ({
      guildId: guild.id,
      ownerId: guild.ownerId,
      roles: roles.map((r) => ({ id: r.id, position: r.position, permissions: BigInt(r.permissions) })),
    }),
    [guild, roles],
  );
  const ruleChannels = useMemo<OnboardingRuleChannel[]>(
    () =>
      channels.map((c) => ({
        id: c.id,
        name: c.name,
        type: c.type,
        overwrites: c.overwrites.map((o) => ({ id: o.id, type: o.type, allow: BigInt(o.allow), deny: BigInt(o.deny) })),
      })),
    [channels],
  );
  const eligible = ruleChannels.filter((c) => ONBOARDING_CHANNEL_TYPES.includes(c.type));
  const categories = new Map(channels.filter((c) => c.type === 4).map((c) => [c.id, c.name]));
  const parentOf = new Map(channels.map((c) => [c.id, c.parent_id]));
  const channelItems: ChipItem[] = eligible.map((c) => ({ id: c.id, label: `#${c.name}` }));

  const form = useForm<OnboardingValues>({
    resolver: zodResolver(OnboardingSchema),
    defaultValues: defaults,
    mode: "onChange",
  });
  const { register, control, handleSubmit, setError, setValue, reset, watch, formState } = form;
  const prompts = useFieldArray({ control, name: "prompts" });
  const [reason, setReason] = useState("");
  const { run, pending } = useAction(modifyGuildOnboardingAction, { failure: "Couldn't save onboarding" });

  const values = watch();
  useUnsavedChanges(formState.isDirty);
  const report = checkOnboardingRules(values, { context, channels: ruleChannels });
  const defaultIds = values.default_channel_ids;
  const setDefaults = (ids: string[]) =>
    setValue("default_channel_ids", ids, { shouldDirty: true, shouldValidate: true });

  const onSubmit = handleSubmit(async (data) => {
    if (!checkOnboardingRules(data, { context, channels: ruleChannels }).canSave) return;
    const result = await run({ guildId: guild.id, reason: reason || undefined, ...data });
    if (result.ok) {
      // The API replaces placeholder ids of new questions and options: continue from what it stored.
      reset(onboardingValues(result.data));
      setReason("");
    } else applyFieldErrors(setError, result.fieldErrors, FIELDS);
  });

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Onboarding"
      className="grid grid-cols-1 gap-6 pb-28 xl:grid-cols-[minmax(0,1fr)_360px]"
    >
      <div className="flex min-w-0 flex-col gap-6">
        {formState.errors.root?.server && (
          <p
            role="alert"
            className="rounded-md border border-danger/40 bg-danger/10 p-3 text-sm"
            data-testid="onboarding-server-error"
          >
            {formState.errors.root.server.message}
          </p>
        )}
        <Card>
          <CardHeader
            title="Onboarding"
            description="New members answer questions and are opted into channels and roles."
          />
          <Switch
            id="onboarding-enabled"
            label="Enable onboarding"
            description="Needs the enabling rules met: see the checker."
            {...register("enabled")}
          />
          <fieldset className="mt-3 flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium">Mode</legend>
            {ONBOARDING_MODES.map((m) => (
              <label
                key={m.value}
                className="flex items-start gap-3 rounded-md p-2 ring-1 ring-line has-[:checked]:ring-2 has-[:checked]:ring-blurple"
              >
                <input
                  type="radio"
                  className="mt-1 accent-blurple"
                  value={m.value}
                  checked={values.mode === m.value}
                  onChange={() => setValue("mode", m.value, { shouldDirty: true })}
                />
                <span className="text-sm">
                  {m.label}
                  <span className="block text-xs text-ink-muted">{m.description}</span>
                </span>
              </label>
            ))}
          </fieldset>
        </Card>

        <Card>
          <CardHeader
            title={`Default channels (${defaultIds.length})`}
            description="Every new member is opted into these."
          />
          {formState.errors.default_channel_ids?.message && (
            <p role="alert" className="mb-3 text-xs font-medium text-danger">
              {formState.errors.default_channel_ids.message}
            </p>
          )}
          <fieldset className="grid grid-cols-1 gap-1 sm:grid-cols-2" aria-label="Default channels">
            {eligible.map((c) => {
              const access = everyoneAccess(context, c.overwrites);
              const category = categories.get(parentOf.get(c.id) ?? "");
              return (
                <label key={c.id} className="flex items-center gap-2 rounded-md px-2 py-1.5 hover:bg-surface-sunken">
                  <input
                    type="checkbox"
                    className="size-4 accent-blurple"
                    checked={defaultIds.includes(c.id)}
                    onChange={(e) =>
                      setDefaults(e.target.checked ? [...defaultIds, c.id] : defaultIds.filter((id) => id !== c.id))
                    }
                  />
                  <span className="min-w-0 flex-1 truncate text-sm">
                    #{c.name}
                    {category && <span className="ml-1 text-xs text-ink-muted">in {category}</span>}
                  </span>
                  <Badge tone={access === "chat" ? "success" : "neutral"} title={ACCESS_HINTS[access]}>
                    {access}
                  </Badge>
                </label>
              );
            })}
          </fieldset>
        </Card>

        <Card>
          <CardHeader
            title={`Questions (${prompts.fields.length} of ${ONBOARDING_PROMPTS_MAX})`}
            description="Answers opt members into channels and give them roles."
            actions={
              <Button
                size="sm"
                variant="secondary"
                disabled={prompts.fields.length >= ONBOARDING_PROMPTS_MAX}
                onClick={() =>
                  prompts.append({
                    id: String(newSnowflake()),
                    type: 0,
                    title: "",
                    single_select: false,
                    required: false,
                    in_onboarding: true,
                    options: [newOption()],
                  })
                }
              >
                <Icons.plus className="size-4" /> Add question
              </Button>
            }
          />
          {prompts.fields.length === 0 ? (
            <p className="rounded-md border border-dashed border-line p-6 text-center text-sm text-ink-muted">
              No questions. Members only get the default channels.
            </p>
          ) : (
            <ol className="flex flex-col gap-4">
              {prompts.fields.map((field, index) => (
                <PromptEditor
                  key={field.id}
                  index={index}
                  control={control}
                  register={register}
                  setValue={setValue}
                  errors={formState.errors.prompts}
                  channels={channelItems}
                  roles={assignableRoles}
                  emojis={emojis}
                  onRemove={() => prompts.remove(index)}
                />
              ))}
            </ol>
          )}
        </Card>
      </div>

      <div className="xl:sticky xl:top-6 xl:self-start">
        <RuleChecker
          report={report}
          enabled={values.enabled}
          onAdd={(ids) => setDefaults([...defaultIds, ...ids.filter((id) => !defaultIds.includes(id))])}
        />
      </div>

      {(formState.isDirty || !report.canSave) && (
        <UnsavedChangesBar
          saveLabel="Save onboarding"
          title={formState.isDirty ? undefined : "Onboarding is on but breaks its rules"}
          pending={pending}
          saveDisabled={!report.canSave || !formState.isDirty}
          onReset={() => reset()}
          summary={
            report.canSave ? undefined : (
              <p className="font-medium text-danger-ink" role="status" data-testid="onboarding-blocked">
                Can&apos;t enable onboarding yet:{" "}
                {report.rules
                  .filter((r) => !r.met)
                  .map((r) => `${r.label.toLowerCase()} (${r.have} of ${r.need})`)
                  .join("; ")}
                .
              </p>
            )
          }
        >
          <SaveBarReason value={reason} onChange={setReason} />
        </UnsavedChangesBar>
      )}
    </form>
  );
}
