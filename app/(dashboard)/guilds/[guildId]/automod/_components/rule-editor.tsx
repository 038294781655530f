"use client";

// One AutoMod rule's editor (react-hook-form + the shared zod schema, validated as you type): its name; what sets it
// off (keywords, regex patterns checked with the matcher's engine, allowed words; Discord's word lists; a mention
// limit and raid protection); its responses (block the message with a custom message, send an alert to a channel,
// time the member out, block a member's interactions), only those its kind may take; and the roles and channels it
// skips. Every list counts against Discord's limit as it is typed; the API's field errors land on the same fields.
import { useState, type ReactNode } from "react";
import { useForm, type FieldError } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button } from "@/components/ui/button";
import { DisabledReason } from "@/components/ui/card";
import { CheckboxMenu } from "@/components/ui/checkbox-menu";
import { cn } from "@/components/ui/cn";
import { useDialogForm } from "@/components/ui/dialog";
import { Field, fieldProps } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";
import { formatNumber, useLocale } from "@/components/ui/locale";
import { Switch } from "@/components/ui/switch";
import { ReasonField } from "@/components/dashboard/reason-input";
import { applyFieldErrors } from "@/components/dashboard/use-action";
import type { FieldErrors as ActionFieldErrors } from "@/lib/action-result";
import {
  AutoModerationRuleFormSchema,
  PRESET_OPTIONS,
  RULE_FORM_FIELDS,
  TIMEOUT_OPTIONS,
  allowListLimit,
  allowedWordSchema,
  hasKeywords,
  keywordSchema,
  regexPatternSchema,
  type AutoModerationRuleFormValues,
} from "@/lib/dashboard/actions/schemas/auto-moderation";
import {
  ACTIONS_OF_TRIGGER,
  AUTOMOD_LIMITS as LIMITS,
  AutoModerationActionType as Action,
  AutoModerationTriggerType as Trigger,
  type AutoModerationTriggerType,
} from "@/lib/discord/automod/rules";
import { ListField, type ListErrors } from "./list-field";
import type { PickerOption } from "./automod-manager";

export interface RuleEditorProps {
  defaults: AutoModerationRuleFormValues;
  alertChannels: readonly PickerOption[];
  exemptChannels: readonly PickerOption[];
  roles: readonly PickerOption[];
  /** Why the moderator may not save this rule (it opens read-only); null when they may. */
  readOnlyReason: string | null;
  /** Why the moderator may not give a rule a timeout ("needs Timeout Members"); null when they may. */
  timeoutBlocked: string | null;
  submitLabel: string;
  pending: boolean;
  onSubmit: (values: AutoModerationRuleFormValues & { reason?: string }) => Promise<{
    ok: boolean;
    fieldErrors?: ActionFieldErrors;
  }>;
  /** Delete, for a rule that exists (with why it is unavailable). */
  onDelete?: { run: () => void; blocked: string | null };
}

const chars = (text: string) => [...text].length;

export function RuleEditor({
  defaults,
  alertChannels,
  exemptChannels,
  roles,
  readOnlyReason,
  timeoutBlocked,
  submitLabel,
  pending,
  onSubmit,
  onDelete,
}: RuleEditorProps) {
  const locale = useLocale();
  const { register, handleSubmit, watch, setValue, setError, formState } = useForm<AutoModerationRuleFormValues>({
    resolver: zodResolver(AutoModerationRuleFormSchema),
    defaultValues: defaults,
    mode: "onChange",
  });
  const errors = formState.errors;
  const [reason, setReason] = useState("");
  const { requestClose } = useDialogForm(!readOnlyReason && (formState.isDirty || reason !== ""));
  const trigger = defaults.trigger_type as AutoModerationTriggerType;
  const takes = (type: number) => (ACTIONS_OF_TRIGGER[trigger] as readonly number[]).includes(type);
  const values = watch();
  const set = <K extends keyof AutoModerationRuleFormValues>(key: K, value: AutoModerationRuleFormValues[K]) =>
    setValue(key, value as never, { shouldDirty: true, shouldValidate: true });
  const listErrors = (key: "keyword_filter" | "regex_patterns" | "allow_list") => errors[key] as ListErrors | undefined;
  // "Choose at least one response" is the rule's, not a field's.
  const actionsError = (errors as Record<string, FieldError | undefined>).actions?.message;
  const count = (n: number, max: number) => `${formatNumber(n, locale)} / ${formatNumber(max, locale)}`;
  const readOnly = Boolean(readOnlyReason);
  const name = trigger === Trigger.MemberProfile ? "names" : "messages";

  const submit = handleSubmit(async (form) => {
    const result = await onSubmit({ ...form, reason: reason || undefined });
    if (!result.ok && result.fieldErrors) applyFieldErrors(setError, result.fieldErrors, RULE_FORM_FIELDS);
  });

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5" aria-label="AutoMod rule">
      {readOnlyReason && (
        <p role="note" className="rounded-md bg-surface-sunken px-3 py-2 text-sm">
          <DisabledReason reason={`You can't edit this rule: ${readOnlyReason}.`} />
        </p>
      )}
      <fieldset disabled={readOnly} className="contents">
        <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-start">
          <Field
            id="automod-name"
            label="Rule name"
            hint={count(chars(values.name ?? ""), LIMITS.ruleName)}
            error={errors.name?.message}
          >
            <Input {...fieldProps("automod-name", errors.name?.message)} {...register("name")} />
          </Field>
          <Switch id="automod-enabled" label="Enabled" className="sm:pt-7" {...register("enabled")} />
        </div>

        {hasKeywords(trigger) && (
          <Section
            title="Triggers"
            description={
              trigger === Trigger.MemberProfile
                ? "Members whose username, display name or nickname holds one of these are blocked until they change it."
                : "Messages holding one of these are caught."
            }
          >
            <ListField
              id="automod-keywords"
              label="Keywords"
              hint="One per line. Add * to match part of a word: cat* matches catch, *cat matches bobcat, *cat* matches both. Not case sensitive."
              value={values.keyword_filter}
              onChange={(list) => set("keyword_filter", list)}
              max={LIMITS.keywordFilter}
              itemSchema={keywordSchema}
              errors={listErrors("keyword_filter")}
              rows={5}
              disabled={readOnly}
            />
            <ListField
              id="automod-regex"
              label="Regex patterns"
              hint={`One per line, in Rust's regex syntax (no look-around or back-references), at most ${LIMITS.regexLength} characters each.`}
              value={values.regex_patterns}
              onChange={(list) => set("regex_patterns", list)}
              max={LIMITS.regexPatterns}
              itemSchema={regexPatternSchema}
              errors={listErrors("regex_patterns")}
              trim={false}
              rows={3}
              disabled={readOnly}
            />
          </Section>
        )}

        {trigger === Trigger.KeywordPreset && (
          <Section title="Lists of words" description="Discord keeps these lists up to date.">
            <fieldset className="flex flex-col gap-1" aria-describedby="automod-presets-error">
              <legend className="sr-only">Lists of words</legend>
              {PRESET_OPTIONS.map((option) => (
                <Switch
                  key={option.preset}
                  id={`automod-preset-${option.preset}`}
                  label={option.label}
                  checked={values.presets.includes(option.preset)}
                  onChange={(event) =>
                    set(
                      "presets",
                      event.target.checked
                        ? [...values.presets, option.preset]
                        : values.presets.filter((p) => p !== option.preset),
                    )
                  }
                />
              ))}
            </fieldset>
            {errors.presets?.message && (
              <p id="automod-presets-error" role="alert" className="text-xs font-medium text-danger">
                {errors.presets.message}
              </p>
            )}
          </Section>
        )}

        {(hasKeywords(trigger) || trigger === Trigger.KeywordPreset) && (
          <ListField
            id="automod-allow-list"
            label="Allowed words"
            hint={`Words and phrases that never set this rule off, one per line (at most ${LIMITS.allowListLength} characters each).`}
            value={values.allow_list}
            onChange={(list) => set("allow_list", list)}
            max={allowListLimit(trigger)}
            itemSchema={allowedWordSchema}
            errors={listErrors("allow_list")}
            rows={3}
            disabled={readOnly}
          />
        )}

        {trigger === Trigger.MentionSpam && (
          <Section title="Triggers" description="Unique role and user mentions in one message.">
            <Field
              id="automod-mention-limit"
              label="Mention limit"
              hint={`Block messages with more than this many mentions (0 to ${LIMITS.mentionTotalLimit}).`}
              error={errors.mention_total_limit?.message}
              className="max-w-48"
            >
              <Input
                type="number"
                min={0}
                max={LIMITS.mentionTotalLimit}
                {...fieldProps("automod-mention-limit", errors.mention_total_limit?.message)}
                {...register("mention_total_limit", { valueAsNumber: true })}
              />
            </Field>
            <Switch
              id="automod-raid-protection"
              label="Mention raid protection"
              description="Also catch mention raids: many members mentioning in a short time."
              {...register("mention_raid_protection_enabled")}
            />
          </Section>
        )}

        {trigger === Trigger.Spam && (
          <p className="rounded-md bg-surface-sunken px-3 py-2 text-sm text-ink-muted">
            Discord decides which messages look like spam; this rule has nothing more to set.
          </p>
        )}

        <Section
          title="Responses"
          description={`What AutoMod does when ${name} set the rule off.`}
          error={actionsError}
          errorId="automod-actions-error"
        >
          {takes(Action.BlockMessage) && (
            <div>
              <Switch
                id="automod-block-message"
                aria-label="Block message"
                label="Block message"
                description="The message is not sent."
                {...register("block_message")}
              />
              {values.block_message && (
                <Field
                  id="automod-custom-message"
                  label="Custom message"
                  hint={`Shown to the member whose message was blocked (optional). ${count(chars(values.custom_message ?? ""), LIMITS.customMessage)}`}
                  error={errors.custom_message?.message}
                  className="ml-0 sm:ml-4"
                >
                  <Input
                    {...fieldProps("automod-custom-message", errors.custom_message?.message)}
                    placeholder="Let's keep it friendly"
                    {...register("custom_message")}
                  />
                </Field>
              )}
            </div>
          )}
          {takes(Action.SendAlertMessage) && (
            <div>
              <Switch
                id="automod-send-alert"
                aria-label="Send an alert"
                label="Send an alert"
                description={
                  trigger === Trigger.MemberProfile
                    ? "Post the member's name to a channel moderators read."
                    : "Post the caught message to a channel moderators read."
                }
                {...register("send_alert")}
              />
              {values.send_alert && (
                <Field
                  id="automod-alert-channel"
                  label="Alert channel"
                  error={errors.alert_channel_id?.message}
                  className="ml-0 sm:ml-4"
                >
                  <Select
                    {...fieldProps("automod-alert-channel", errors.alert_channel_id?.message)}
                    {...register("alert_channel_id", { setValueAs: (v) => (v === "" || v === null ? null : v) })}
                  >
                    <option value="">Pick a channel</option>
                    {alertChannels.map((c) => (
                      <option key={c.id} value={c.id}>
                        {c.label}
                      </option>
                    ))}
                  </Select>
                </Field>
              )}
            </div>
          )}
          {takes(Action.Timeout) && (
            <div>
              <Switch
                id="automod-timeout"
                aria-label="Timeout member"
                label="Timeout member"
                description="The member can't talk, react or join voice for a while."
                reason={timeoutBlocked && !values.timeout ? timeoutBlocked : null}
                disabled={Boolean(timeoutBlocked) && !values.timeout}
                {...register("timeout")}
              />
              {values.timeout && (
                <Field
                  id="automod-timeout-duration"
                  label="Timeout length"
                  error={errors.timeout_seconds?.message ?? (timeoutBlocked ? `Saving ${timeoutBlocked}.` : undefined)}
                  className="ml-0 max-w-60 sm:ml-4"
                >
                  <Select
                    {...fieldProps("automod-timeout-duration", errors.timeout_seconds?.message)}
                    {...register("timeout_seconds", { valueAsNumber: true })}
                  >
                    {!TIMEOUT_OPTIONS.some((o) => o.seconds === values.timeout_seconds) && (
                      <option value={values.timeout_seconds}>{values.timeout_seconds} seconds</option>
                    )}
                    {TIMEOUT_OPTIONS.map((o) => (
                      <option key={o.seconds} value={o.seconds}>
                        {o.label}
                      </option>
                    ))}
                  </Select>
                </Field>
              )}
            </div>
          )}
          {takes(Action.BlockMemberInteraction) && (
            <Switch
              id="automod-block-interaction"
              aria-label="Block member interactions"
              label="Block member interactions"
              description="The member can't send messages, react, join voice or use apps until they change their name."
              {...register("block_member_interaction")}
            />
          )}
        </Section>

        <Section title="Exemptions" description="Members with these roles, and these channels, are never checked.">
          <div className="flex flex-wrap gap-4">
            <IdPicker
              id="automod-exempt-roles"
              label="Exempt roles"
              options={roles}
              value={values.exempt_roles}
              max={LIMITS.exemptRoles}
              error={errors.exempt_roles?.message}
              onChange={(ids) => set("exempt_roles", ids)}
              disabled={readOnly}
            />
            <IdPicker
              id="automod-exempt-channels"
              label="Exempt channels"
              options={exemptChannels}
              value={values.exempt_channels}
              max={LIMITS.exemptChannels}
              error={errors.exempt_channels?.message}
              onChange={(ids) => set("exempt_channels", ids)}
              disabled={readOnly}
            />
          </div>
        </Section>
      </fieldset>

      <ReasonField
        id="automod-reason"
        disabled={readOnly}
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
      {/* Sticky over the dialog's bottom padding too, so nothing scrolls by beneath it. */}
      <div className="sticky -bottom-4 -mx-5 -mb-4 flex flex-wrap items-center gap-2 border-t border-line bg-surface px-5 py-3">
        {onDelete && (
          <Button
            variant="ghost"
            className="text-danger"
            disabled={Boolean(onDelete.blocked)}
            title={onDelete.blocked ?? undefined}
            onClick={onDelete.run}
          >
            Delete rule
          </Button>
        )}
        <span className="ml-auto" />
        <Button variant="ghost" onClick={requestClose}>
          Cancel
        </Button>
        {!readOnly && (
          <Button type="submit" pending={pending}>
            {submitLabel}
          </Button>
        )}
      </div>
    </form>
  );
}

function Section({
  title,
  description,
  children,
  error,
  errorId,
}: {
  title: string;
  description?: string;
  children: ReactNode;
  error?: string;
  errorId?: string;
}) {
  return (
    <fieldset className="flex flex-col gap-3 rounded-lg p-3 ring-1 ring-line" aria-describedby={errorId}>
      <legend className="px-1 text-xs font-bold uppercase tracking-wide text-ink-muted">{title}</legend>
      {description && <p className="-mt-1 text-xs text-ink-muted">{description}</p>}
      {children}
      {error && (
        <p id={errorId} role="alert" className="text-xs font-medium text-danger">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** Roles or channels a rule skips: a dropdown of boxes (none left to tick at the limit), the picked ones as chips. */
function IdPicker({
  id,
  label,
  options,
  value,
  max,
  error,
  onChange,
  disabled,
}: {
  id: string;
  label: string;
  options: readonly PickerOption[];
  value: readonly string[];
  max: number;
  error?: string;
  onChange: (ids: string[]) => void;
  disabled?: boolean;
}) {
  const locale = useLocale();
  const full = value.length >= max;
  const labelOf = new Map(options.map((o) => [o.id, o.label]));
  return (
    <div className="flex min-w-0 flex-1 basis-64 flex-col gap-1.5" data-testid={id}>
      <div className="flex items-baseline justify-between gap-3">
        <span className="text-sm font-medium">{label}</span>
        <span className={cn("text-xs tabular-nums", value.length > max ? "text-danger" : "text-ink-muted")}>
          {formatNumber(value.length, locale)} / {formatNumber(max, locale)}
        </span>
      </div>
      {!disabled && (
        <CheckboxMenu
          summary={
            value.length ? `${label}: ${formatNumber(value.length, locale)} picked` : `Pick ${label.toLowerCase()}`
          }
          legend={label}
          items={options.map((o) => ({
            id: o.id,
            label: o.label,
            checked: value.includes(o.id),
            disabled: full && !value.includes(o.id),
          }))}
          onChange={(picked, on) => onChange(on ? [...value, picked] : value.filter((x) => x !== picked))}
          summaryClassName="h-10"
          panelClassName="max-h-64 w-64 overflow-y-auto"
        />
      )}
      {value.length > 0 && (
        <ul className="flex flex-wrap gap-1.5" aria-label={label}>
          {value.map((picked) => (
            <li
              key={picked}
              className="inline-flex items-center gap-1 rounded-full bg-surface-sunken py-0.5 pl-2.5 pr-1 text-xs ring-1 ring-line"
            >
              {labelOf.get(picked) ?? picked}
              {!disabled && (
                <button
                  type="button"
                  className="rounded-full px-1 text-ink-muted hover:bg-line hover:text-ink"
                  aria-label={`Remove ${labelOf.get(picked) ?? picked}`}
                  onClick={() => onChange(value.filter((x) => x !== picked))}
                >
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {full && !disabled && (
        <p className="text-xs text-ink-muted">The most a rule can have: remove one to pick another.</p>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-xs font-medium text-danger">
          {error}
        </p>
      )}
    </div>
  );
}
