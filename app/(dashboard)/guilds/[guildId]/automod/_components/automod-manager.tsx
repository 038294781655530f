"use client";

// The AutoMod page's rules, grouped as Discord's client shows them, each with its switch (on or off at once), a summary,
// Edit and Delete; "Create rule" in each group while the server is under that kind's cap (6 custom-word rules, one of
// each other kind) and the moderator may; the editor and the delete confirmation in dialogs; "Try it" beside them.
import { useMemo, useState } from "react";
import type { APIAutoModerationRule } from "discord-api-types/v10";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DisabledReason } from "@/components/ui/card";
import { Dialog, DialogCancel } from "@/components/ui/dialog";
import { Icons } from "@/components/ui/icons";
import { Input } from "@/components/ui/input";
import { useLocale } from "@/components/ui/locale";
import { useAction } from "@/components/dashboard/use-action";
import {
  createAutoModerationRuleAction,
  deleteAutoModerationRuleAction,
  modifyAutoModerationRuleAction,
  setAutoModerationRuleEnabledAction,
} from "@/lib/dashboard/actions/auto-moderation";
import { AUTOMOD_GROUPS, newRuleValues, ruleFormValues } from "@/lib/dashboard/actions/schemas/auto-moderation";
import { AUDIT_LOG_REASON_MAX } from "@/lib/discord/limits";
import { RULES_PER_TRIGGER_TYPE, type AutoModerationTriggerType } from "@/lib/discord/automod/rules";
import { RuleEditor } from "./rule-editor";
import { actionSummary, exemptSummary, triggerSummary } from "./rule-summary";
import { TryIt } from "./try-it";

export interface PickerOption {
  id: string;
  label: string;
}

/** Why the moderator may not do each thing (the policy table's answer), or null. */
export interface AutoModRefusals {
  create: string | null;
  modify: string | null;
  delete: string | null;
  /** A timeout response also needs Timeout Members. */
  timeout: string | null;
}

type Group = (typeof AUTOMOD_GROUPS)[number];
type Editing =
  | { mode: "create"; group: Group; name: string }
  | { mode: "edit"; rule: APIAutoModerationRule }
  | { mode: "delete"; rule: APIAutoModerationRule }
  | null;

const triggerOf = (rule: APIAutoModerationRule) => rule.trigger_type as number as AutoModerationTriggerType;

/** Why another rule of this kind can't be made: Discord's cap per trigger type. */
function capReason(cap: number): string {
  return cap === 1 ? "a server can have one rule of this kind" : `a server can have at most ${cap} rules of this kind`;
}

export function AutoModManager({
  guildId,
  rules,
  alertChannels,
  exemptChannels,
  roles,
  refusals,
}: {
  guildId: string;
  rules: APIAutoModerationRule[];
  alertChannels: PickerOption[];
  exemptChannels: PickerOption[];
  roles: PickerOption[];
  refusals: AutoModRefusals;
}) {
  const locale = useLocale();
  const [editing, setEditing] = useState<Editing>(null);
  // The switch moves at once; the API's answer (the page's new rules) or a failure settles it.
  const [switching, setSwitching] = useState<Record<string, boolean>>({});
  const create = useAction(createAutoModerationRuleAction, { failure: "Couldn't create the rule" });
  const edit = useAction(modifyAutoModerationRuleAction, { failure: "Couldn't save the rule" });
  const toggle = useAction(setAutoModerationRuleEnabledAction, { failure: "Couldn't change the rule" });
  const remove = useAction(deleteAutoModerationRuleAction, { failure: "Couldn't delete the rule" });

  const channelName = useMemo(() => {
    const names = new Map(alertChannels.map((c) => [c.id, c.label]));
    return (id: string) => names.get(id);
  }, [alertChannels]);

  const setEnabled = async (rule: APIAutoModerationRule, enabled: boolean) => {
    setSwitching((s) => ({ ...s, [rule.id]: enabled }));
    await toggle.run({ guildId, ruleId: rule.id, enabled });
    setSwitching(({ [rule.id]: _done, ...rest }) => rest);
  };

  const editingRule = editing?.mode === "edit" ? editing.rule : null;
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_340px]">
      <div className="flex min-w-0 flex-col gap-4">
        {AUTOMOD_GROUPS.map((group) => {
          const ofGroup = rules.filter((rule) => triggerOf(rule) === group.trigger);
          const cap = RULES_PER_TRIGGER_TYPE[group.trigger];
          const blocked = refusals.create ?? (ofGroup.length >= cap ? capReason(cap) : null);
          const headingId = `automod-group-${group.trigger}`;
          return (
            <section
              key={group.trigger}
              aria-labelledby={headingId}
              data-trigger={group.trigger}
              className="rounded-lg bg-surface-raised p-4 ring-1 ring-line sm:p-5"
            >
              <div className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-3">
                <div className="min-w-0">
                  <h2 id={headingId} className="text-base font-semibold">
                    {group.label}
                  </h2>
                  <p className="mt-0.5 text-sm text-ink-muted">{group.description}</p>
                </div>
                <div className="flex flex-col items-end gap-1">
                  <Button
                    size="sm"
                    variant="secondary"
                    disabled={Boolean(blocked)}
                    aria-describedby={blocked ? `${headingId}-blocked` : undefined}
                    onClick={() =>
                      setEditing({
                        mode: "create",
                        group,
                        name: cap > 1 ? `${group.newName} ${ofGroup.length + 1}` : group.newName,
                      })
                    }
                  >
                    <Icons.plus className="size-4" /> Create rule
                  </Button>
                  {cap > 1 && (
                    <span className="text-xs tabular-nums text-ink-muted">
                      {ofGroup.length} / {cap} rules
                    </span>
                  )}
                </div>
              </div>
              {blocked && (
                <span id={`${headingId}-blocked`}>
                  <DisabledReason reason={`Can't create another: ${blocked}.`} className="mt-1" />
                </span>
              )}
              {ofGroup.length > 0 && (
                <ul className="mt-3 divide-y divide-line rounded-md ring-1 ring-line">
                  {ofGroup.map((rule) => {
                    const enabled = switching[rule.id] ?? rule.enabled;
                    const exempt = exemptSummary(rule, locale);
                    return (
                      <li
                        key={rule.id}
                        data-rule-id={rule.id}
                        className="flex flex-col gap-2 px-3 py-2 sm:flex-row sm:items-center sm:gap-3"
                      >
                        <div className="flex min-w-0 flex-1 items-start gap-3">
                          <label className="relative mt-0.5 inline-flex shrink-0 cursor-pointer has-[:disabled]:cursor-not-allowed">
                            <input
                              type="checkbox"
                              role="switch"
                              className="peer sr-only"
                              aria-label={`Enable ${rule.name}`}
                              checked={enabled}
                              disabled={Boolean(refusals.modify) || rule.id in switching}
                              onChange={(event) => void setEnabled(rule, event.target.checked)}
                            />
                            <span
                              aria-hidden
                              className="h-6 w-10 rounded-full bg-line transition-colors peer-checked:bg-success peer-focus-visible:outline peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-blurple peer-disabled:opacity-50"
                            />
                            <span
                              aria-hidden
                              className="absolute left-1 top-1 size-4 rounded-full bg-white shadow transition-transform peer-checked:translate-x-4"
                            />
                          </label>
                          <span className="min-w-0">
                            <span className="flex flex-wrap items-center gap-2">
                              <span className="font-medium">{rule.name}</span>
                              {!enabled && <Badge>Off</Badge>}
                            </span>
                            <span className="block text-xs text-ink-muted">
                              {triggerSummary(rule, locale)} · {actionSummary(rule, channelName)}
                            </span>
                            {exempt && <span className="block text-xs text-ink-muted">{exempt}</span>}
                          </span>
                        </div>
                        {/* On a phone, under the name (past the switch); beside it from sm up. */}
                        <div className="flex shrink-0 gap-1 pl-[3.25rem] sm:pl-0">
                          <Button
                            size="sm"
                            variant="secondary"
                            aria-label={`${refusals.modify ? "View" : "Edit"} ${rule.name}`}
                            onClick={() => setEditing({ mode: "edit", rule })}
                          >
                            {refusals.modify ? "View" : "Edit"}
                          </Button>
                          <Button
                            size="sm"
                            variant="ghost"
                            className="text-danger"
                            aria-label={`Delete ${rule.name}`}
                            disabled={Boolean(refusals.delete)}
                            title={refusals.delete ?? undefined}
                            onClick={() => setEditing({ mode: "delete", rule })}
                          >
                            Delete
                          </Button>
                        </div>
                      </li>
                    );
                  })}
                </ul>
              )}
              {refusals.modify && ofGroup.length > 0 && (
                <DisabledReason reason={`Read-only: ${refusals.modify}`} className="mt-2" />
              )}
            </section>
          );
        })}
      </div>

      <TryIt rules={rules} />

      <Dialog
        open={editing?.mode === "create" || editing?.mode === "edit"}
        onClose={() => setEditing(null)}
        title={
          editing?.mode === "create"
            ? `Create rule: ${editing.group.label}`
            : editingRule
              ? `${refusals.modify ? "View" : "Edit"} ${editingRule.name}`
              : ""
        }
        size="lg"
      >
        {editing?.mode === "create" && (
          <RuleEditor
            key={`new:${editing.group.trigger}`}
            defaults={newRuleValues(editing.group.trigger, editing.name)}
            alertChannels={alertChannels}
            exemptChannels={exemptChannels}
            roles={roles}
            readOnlyReason={refusals.create}
            timeoutBlocked={refusals.timeout}
            submitLabel="Create rule"
            pending={create.pending}
            onSubmit={async ({ reason, ...values }) => {
              const result = await create.run({ guildId, reason, ...values });
              if (result.ok) setEditing(null);
              return result;
            }}
          />
        )}
        {editingRule && (
          <RuleEditor
            key={editingRule.id}
            defaults={ruleFormValues(editingRule)}
            alertChannels={alertChannels}
            exemptChannels={exemptChannels}
            roles={roles}
            readOnlyReason={refusals.modify}
            timeoutBlocked={refusals.timeout}
            submitLabel="Save changes"
            pending={edit.pending}
            onSubmit={async ({ reason, ...values }) => {
              const result = await edit.run({ guildId, ruleId: editingRule.id, reason, ...values });
              if (result.ok) setEditing(null);
              return result;
            }}
            onDelete={{
              run: () => setEditing({ mode: "delete", rule: editingRule }),
              blocked: refusals.delete,
            }}
          />
        )}
      </Dialog>

      <DeleteRuleDialog
        rule={editing?.mode === "delete" ? editing.rule : null}
        pending={remove.pending}
        onClose={() => setEditing(null)}
        onConfirm={async (rule, reason) => {
          const result = await remove.run({ guildId, ruleId: rule.id, reason: reason || undefined });
          if (result.ok) setEditing(null);
        }}
      />
    </div>
  );
}

function DeleteRuleDialog({
  rule,
  pending,
  onClose,
  onConfirm,
}: {
  rule: APIAutoModerationRule | null;
  pending: boolean;
  onClose: () => void;
  onConfirm: (rule: APIAutoModerationRule, reason: string) => void;
}) {
  const [reason, setReason] = useState("");
  const close = () => {
    setReason("");
    onClose();
  };
  return (
    <Dialog
      open={rule !== null}
      onClose={close}
      dirty={reason !== ""}
      title={`Delete ${rule?.name ?? "rule"}?`}
      description="AutoMod stops applying it at once. This can't be undone."
      size="sm"
      footer={
        <>
          <DialogCancel />
          <Button variant="danger" pending={pending} onClick={() => rule && onConfirm(rule, reason)}>
            Delete rule
          </Button>
        </>
      }
    >
      <label htmlFor="delete-automod-reason" className="text-sm font-medium">
        Reason
      </label>
      <Input
        id="delete-automod-reason"
        className="mt-1"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        maxLength={AUDIT_LOG_REASON_MAX}
        placeholder="Recorded in the audit log"
      />
    </Dialog>
  );
}
