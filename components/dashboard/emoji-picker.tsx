"use client";

// Picks the emoji of a welcome channel or an onboarding option: none, a standard (unicode) emoji typed in, or one of
// the server's custom emojis. The value is the API's pair: emoji_id (custom only) and emoji_name.
import { useState } from "react";
import { Input, Select } from "@/components/ui/input";

export interface GuildEmoji {
  id: string;
  name: string;
  animated: boolean;
}

export interface EmojiValue {
  emoji_id: string | null;
  emoji_name: string | null;
}

export function EmojiPicker({
  id,
  label,
  value,
  onChange,
  emojis,
  error,
  disabled,
}: {
  id: string;
  label: string;
  value: EmojiValue;
  onChange: (value: EmojiValue) => void;
  emojis: readonly GuildEmoji[];
  error?: string;
  disabled?: boolean;
}) {
  const [standard, setStandard] = useState(value.emoji_id === null && value.emoji_name !== null);
  const choice = value.emoji_id ?? (standard ? "standard" : "");
  return (
    <div className="flex min-w-0 flex-wrap gap-2">
      <Select
        id={id}
        aria-label={label}
        aria-invalid={Boolean(error) || undefined}
        aria-describedby={`${id}-error`}
        disabled={disabled}
        value={choice}
        className="min-w-36 flex-1"
        onChange={(e) => {
          const next = e.target.value;
          setStandard(next === "standard");
          if (next === "") onChange({ emoji_id: null, emoji_name: null });
          else if (next === "standard")
            onChange({ emoji_id: null, emoji_name: value.emoji_id === null ? value.emoji_name : null });
          else onChange({ emoji_id: next, emoji_name: emojis.find((emoji) => emoji.id === next)?.name ?? null });
        }}
      >
        <option value="">No emoji</option>
        <option value="standard">Standard emoji…</option>
        {emojis.length > 0 && (
          <optgroup label="This server's emojis">
            {emojis.map((emoji) => (
              <option key={emoji.id} value={emoji.id}>
                :{emoji.name}:{emoji.animated ? " (animated)" : ""}
              </option>
            ))}
          </optgroup>
        )}
      </Select>
      {choice === "standard" && (
        <Input
          aria-label={`${label}: standard emoji`}
          placeholder="👋"
          disabled={disabled}
          value={value.emoji_name ?? ""}
          onChange={(e) =>
            onChange({ emoji_id: null, emoji_name: e.target.value.trim() === "" ? null : e.target.value.trim() })
          }
          className="w-20 text-center"
          maxLength={16}
        />
      )}
    </div>
  );
}

/** An emoji as text: the character, or :name: for a custom one (custom emoji images are the CDN's). */
export function EmojiText({ value, className }: { value: EmojiValue; className?: string }) {
  if (!value.emoji_name) return null;
  return value.emoji_id ? (
    <span className={className} title={`Custom emoji :${value.emoji_name}:`}>
      <span className="rounded bg-blurple/15 px-1 font-mono text-[0.8em]">:{value.emoji_name}:</span>
    </span>
  ) : (
    <span className={className} aria-hidden>
      {value.emoji_name}
    </span>
  );
}
