"use client";

// Nickname: at most 32 characters (the spec's limit, in the field and in the schema the server checks again);
// empty clears it.
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button } from "@/components/ui/button";
import { fieldProps } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { applyFieldErrors, useAction } from "@/components/dashboard/use-action";
import { setMemberNicknameAction } from "@/lib/dashboard/actions/members";
import { NicknameFormSchema, type NicknameFormValues } from "@/lib/dashboard/actions/schemas/members";
import { NICK_MAX } from "@/lib/discord/limits";
import { ActionErrors, PanelSection, type PanelFormProps } from "./panel-section";
import { useReportDirty } from "./use-dirty-forms";

export function NicknameForm({ nick, username, ...props }: PanelFormProps & { nick: string | null; username: string }) {
  const { register, handleSubmit, setError, watch, formState } = useForm<NicknameFormValues>({
    resolver: zodResolver(NicknameFormSchema),
    defaultValues: { nick: nick ?? "" },
  });
  useReportDirty(formState.isDirty, props.onDirtyChange);
  const action = useAction(setMemberNicknameAction, { failure: "Couldn't change the nickname" });
  const error = formState.errors.nick?.message;
  const value = watch("nick");

  return (
    <PanelSection title="Nickname" reason={props.blocked}>
      <form
        className="flex flex-wrap gap-2"
        onSubmit={handleSubmit(async (values) => {
          const result = await action.run({
            guildId: props.guildId,
            userId: props.userId,
            nick: values.nick,
          });
          if (!result.ok) applyFieldErrors(setError, result.fieldErrors, ["nick"]);
        })}
      >
        <Input
          aria-label="Nickname"
          {...fieldProps("member-nick", error)}
          {...register("nick")}
          placeholder={username}
          maxLength={NICK_MAX}
          disabled={Boolean(props.blocked)}
          className="max-w-xs flex-1"
        />
        <Button
          type="submit"
          variant="secondary"
          pending={action.pending}
          disabled={Boolean(props.blocked) || !formState.isDirty}
        >
          {value ? "Save nickname" : "Clear nickname"}
        </Button>
      </form>
      <span className="mt-1 block text-xs text-ink-muted" id="member-nick-hint">
        {[...(value ?? "")].length}/{NICK_MAX}
      </span>
      {error && (
        <p id="member-nick-error" role="alert" className="mt-1 text-xs font-medium text-danger">
          {error}
        </p>
      )}
      <ActionErrors message={formState.errors.root?.server?.message} />
    </PanelSection>
  );
}
