"use client";

// Delete in two steps: the first click asks, the second deletes (focus stays on the button).
import { useState } from "react";
import { Button } from "@/components/ui/button";

export function ConfirmDelete({
  label,
  disabled,
  title,
  onDelete,
}: {
  /** The accessible name of the first step ("Delete :party_blob:"). */
  label: string;
  disabled?: boolean;
  title?: string;
  onDelete: () => Promise<unknown>;
}) {
  const [asking, setAsking] = useState(false);
  const [pending, setPending] = useState(false);
  if (!asking)
    return (
      <Button
        size="sm"
        variant="ghost"
        aria-label={label}
        title={title ?? label}
        disabled={disabled}
        onClick={() => setAsking(true)}
      >
        Delete
      </Button>
    );
  return (
    <Button
      size="sm"
      variant="danger"
      pending={pending}
      autoFocus
      onBlur={() => !pending && setAsking(false)}
      onClick={async () => {
        setPending(true);
        await onDelete();
        setPending(false);
        setAsking(false);
      }}
    >
      Confirm delete
    </Button>
  );
}
