"use client";

// A read-only value with a Copy button (ids, generated links, a secret shown once).
import { useState } from "react";
import { CheckIcon, CopyIcon } from "./icons";
import { FieldLabel } from "./section";

export function CopyButton({
  value,
  label = "Copy",
  className = "",
}: {
  value: string;
  label?: string;
  className?: string;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      onClick={() => {
        void navigator.clipboard?.writeText(value).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        });
      }}
      className={`inline-flex shrink-0 items-center gap-1.5 rounded-md bg-blurple px-3 py-1.5 text-sm font-medium text-white transition-colors hover:bg-blurple-dark ${className}`}
    >
      {copied ? <CheckIcon className="size-4" /> : <CopyIcon className="size-4" />}
      {copied ? "Copied" : label}
    </button>
  );
}

export function CopyField({ label, value, mono = true }: { label: string; value: string; mono?: boolean }) {
  return (
    <div className="min-w-0">
      <FieldLabel>{label}</FieldLabel>
      <div className="flex items-center gap-2">
        <code
          className={`min-w-0 flex-1 truncate rounded-md bg-surface-sunken px-3 py-1.5 text-sm ${mono ? "font-mono" : ""}`}
          title={value}
        >
          {value}
        </code>
        <CopyButton value={value} />
      </div>
    </div>
  );
}
