"use client";

// Delete: type the channel's name to confirm. A category's channels stay, without a category, as in Discord.
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardHeader, DisabledReason } from "@/components/ui/card";
import { Field, fieldProps } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { useAction } from "@/components/dashboard/use-action";
import { ReasonField } from "@/components/dashboard/reason-input";
import { deleteChannelAction } from "@/lib/dashboard/actions/channel-settings";
import { useNavigateAway } from "@/components/dashboard/unsaved-changes";

export function DeleteChannel({
  guildId,
  channel,
  childCount,
  refusal,
}: {
  guildId: string;
  channel: { id: string; name: string; isCategory: boolean };
  /** How many channels a category holds (they stay, unparented). */
  childCount: number;
  refusal: string | null;
}) {
  const navigateAway = useNavigateAway();
  const [typed, setTyped] = useState("");
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | undefined>();
  const { run, pending } = useAction(deleteChannelAction, { failure: "Couldn't delete the channel" });
  const matches = typed.trim() === channel.name;

  return (
    <Card>
      <CardHeader
        title={channel.isCategory ? "Delete category" : "Delete channel"}
        description={
          channel.isCategory
            ? `The category goes; its ${childCount} channel${childCount === 1 ? "" : "s"} stay, without a category.`
            : "The channel, its threads and its invites go for good. This can't be undone."
        }
      />
      <DisabledReason reason={refusal} className="mb-3" />
      <form
        aria-label="Delete channel"
        noValidate
        className="flex max-w-md flex-col gap-4"
        onSubmit={async (event) => {
          event.preventDefault();
          const result = await run({ guildId, channelId: channel.id, confirmName: typed, reason: reason || undefined });
          if (result.ok) navigateAway(`/guilds/${guildId}/channels`);
          else setError(result.fieldErrors.confirmName?.join(" "));
        }}
      >
        <Field
          id="delete-confirm"
          label={
            <>
              Type <span className="font-mono">{channel.name}</span> to confirm
            </>
          }
          error={error}
        >
          <Input
            {...fieldProps("delete-confirm", error)}
            value={typed}
            autoComplete="off"
            disabled={refusal !== null}
            onChange={(e) => setTyped(e.target.value)}
          />
        </Field>
        <ReasonField
          id="delete-reason"
          label="Reason (optional)"
          hint="Recorded in the audit log."
          value={reason}
          onChange={setReason}
          disabled={refusal !== null}
        />
        <div>
          <Button type="submit" variant="danger" disabled={!matches || refusal !== null} pending={pending}>
            {channel.isCategory ? "Delete category" : "Delete channel"}
          </Button>
        </div>
      </form>
    </Card>
  );
}
