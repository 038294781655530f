"use client";

// One guild image (icon, banner, splash, discovery splash): preview, choose a file (checked for type, size, ratio
// and animation before anything is uploaded), or remove. The value is only a change: a data URI, null (remove),
// or undefined (unchanged).
import { useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import {
  IMAGE_FIELD_RULES,
  imageProblem,
  type ImageField as ImageFieldName,
} from "@/lib/dashboard/actions/schemas/guilds";
import { guildFeatureRequirement } from "@/lib/discord/guild-feature-names";
import { probeImageFile } from "./image-probe";

export function ImageField({
  field,
  currentUrl,
  value,
  onChange,
  features,
  disabled,
  error,
}: {
  field: ImageFieldName;
  currentUrl: string | null;
  value: string | null | undefined;
  onChange: (value: string | null | undefined) => void;
  features: readonly string[];
  disabled?: boolean;
  error?: string;
}) {
  const rule = IMAGE_FIELD_RULES[field];
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const preview = value === undefined ? currentUrl : value;
  const needsFeature =
    rule.feature && !features.includes(rule.feature) ? `Needs ${guildFeatureRequirement(rule.feature)}` : null;
  const square = field === "icon";
  const message = problem ?? error;

  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={id} className="text-sm font-medium">
        {rule.label}
      </label>
      <div className="flex flex-wrap items-center gap-4">
        <div
          className={cn(
            "flex items-center justify-center overflow-hidden bg-surface-sunken text-xs text-ink-muted ring-1 ring-line",
            square ? "size-20 rounded-2xl" : "aspect-video w-44 rounded-lg",
          )}
        >
          {preview ? (
            // eslint-disable-next-line @next/next/no-img-element -- data URIs and CDN URLs
            <img src={preview} alt={`${rule.label} preview`} className="size-full object-cover" />
          ) : (
            <span>No {rule.label.toLowerCase()}</span>
          )}
        </div>
        <div className="flex flex-col gap-2">
          <div className="flex flex-wrap gap-2">
            <input
              ref={input}
              id={id}
              type="file"
              accept={rule.formats.join(",")}
              className="sr-only"
              disabled={disabled || Boolean(needsFeature)}
              aria-describedby={`${id}-hint`}
              onChange={async (event) => {
                const file = event.target.files?.[0];
                event.target.value = "";
                if (!file) return;
                try {
                  const probed = await probeImageFile(file);
                  const why = imageProblem(field, probed, features);
                  setProblem(why);
                  if (!why) onChange(probed.dataUri);
                } catch (e) {
                  setProblem(e instanceof Error ? e.message : "This file can't be used.");
                }
              }}
            />
            <Button
              size="sm"
              variant="secondary"
              disabled={disabled || Boolean(needsFeature)}
              onClick={() => input.current?.click()}
            >
              {preview ? "Change" : "Upload"}
            </Button>
            {preview && (
              <Button
                size="sm"
                variant="ghost"
                disabled={disabled}
                onClick={() => {
                  setProblem(null);
                  onChange(null);
                }}
              >
                Remove
              </Button>
            )}
            {value !== undefined && (
              <Button
                size="sm"
                variant="ghost"
                onClick={() => {
                  setProblem(null);
                  onChange(undefined);
                }}
              >
                Undo
              </Button>
            )}
          </div>
          <p id={`${id}-hint`} className="max-w-xs text-xs text-ink-muted">
            {needsFeature ? `${needsFeature}. ` : ""}
            {rule.hint}
          </p>
          {message && (
            <p role="alert" className="text-xs font-medium text-danger">
              {message}
            </p>
          )}
        </div>
      </div>
    </div>
  );
}
