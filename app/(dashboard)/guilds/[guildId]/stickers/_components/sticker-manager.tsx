"use client";

// Upload Sticker (Create Guild Sticker: name, tags, description and the file), rename in place, delete.
import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader, EmptyState } from "@/components/ui/card";
import { Field, fieldProps } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { applyFieldErrors, useAction } from "@/components/dashboard/use-action";
import { ConfirmDelete } from "@/components/expressions/confirm-delete";
import { FileDrop, readAsDataUri } from "@/components/expressions/file-drop";
import { InlineName } from "@/components/expressions/inline-name";
import { SlotMeter } from "@/components/expressions/slot-meter";
import {
  createGuildStickerAction,
  deleteGuildStickerAction,
  modifyGuildStickerAction,
} from "@/lib/dashboard/actions/expressions";
import { StickerFieldsSchema, type StickerFieldsValues } from "@/lib/dashboard/actions/schemas/expressions";
import type { StickerItem } from "@/lib/dashboard/data/expressions";
import { STICKER_FILE_MAX_BYTES } from "@/lib/discord/limits";

const FORMATS: Record<number, string> = { 1: "PNG", 2: "APNG", 3: "Lottie", 4: "GIF" };
const NAME = StickerFieldsSchema.shape.name;

export function StickerManager({
  guildId,
  stickers,
  slots,
}: {
  guildId: string;
  stickers: StickerItem[];
  slots: number;
}) {
  const form = useForm<StickerFieldsValues>({
    resolver: zodResolver(StickerFieldsSchema),
    defaultValues: { name: "", tags: "", description: "" },
  });
  const { register, handleSubmit, setError, reset, formState } = form;
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const create = useAction(createGuildStickerAction, { failure: "Couldn't upload the sticker" });
  const modify = useAction(modifyGuildStickerAction, { failure: "Couldn't rename the sticker" });
  const remove = useAction(deleteGuildStickerAction, { failure: "Couldn't delete the sticker" });
  const full = stickers.length >= slots;

  const onSubmit = handleSubmit(async (values) => {
    if (!file) return setFileError("Choose a file.");
    if (file.size > STICKER_FILE_MAX_BYTES) return setFileError("Larger than 512 KB.");
    const result = await create.run({ guildId, ...values, file: await readAsDataUri(file), fileName: file.name });
    if (result.ok) {
      reset();
      setFile(null);
    } else applyFieldErrors(setError, result.fieldErrors, ["name", "tags", "description"]);
  });

  return (
    <div className="flex flex-col gap-6">
      <Card>
        <CardHeader
          title="Upload sticker"
          description="PNG, APNG, GIF or Lottie JSON; exactly 320 × 320 and up to 512 KB."
        />
        <div className="mb-4">
          <SlotMeter label="Stickers" used={stickers.length} total={slots} />
        </div>
        <form onSubmit={onSubmit} noValidate aria-label="Upload sticker" className="grid gap-4 sm:grid-cols-2">
          <div className="sm:col-span-2">
            <FileDrop
              accept="image/png,image/apng,image/gif,application/json"
              disabled={full}
              label={file ? `${file.name}: choose another` : "Choose a file or drop it here"}
              onFiles={([chosen]) => {
                setFile(chosen);
                setFileError(null);
              }}
            />
            {fileError && (
              <p role="alert" className="mt-1 text-sm text-danger-ink">
                {fileError}
              </p>
            )}
          </div>
          <Field id="sticker-name" label="Name" error={formState.errors.name?.message}>
            <Input {...fieldProps("sticker-name", formState.errors.name?.message)} {...register("name")} />
          </Field>
          <Field
            id="sticker-tags"
            label="Related emoji"
            hint="Suggested when members type it."
            error={formState.errors.tags?.message}
          >
            <Input {...fieldProps("sticker-tags", formState.errors.tags?.message)} {...register("tags")} />
          </Field>
          <Field
            id="sticker-description"
            label="Description"
            hint="Optional."
            error={formState.errors.description?.message}
          >
            <Input
              {...fieldProps("sticker-description", formState.errors.description?.message)}
              {...register("description")}
            />
          </Field>
          <div className="flex items-end justify-end">
            <Button type="submit" pending={create.pending} disabled={full}>
              Upload sticker
            </Button>
          </div>
        </form>
      </Card>
      <Card>
        <CardHeader title={`Stickers (${stickers.length})`} description="Click a name to rename it." />
        {stickers.length === 0 ? (
          <EmptyState title="No stickers yet">Upload one above.</EmptyState>
        ) : (
          <ul aria-label="Stickers" className="grid grid-cols-[repeat(auto-fill,minmax(12rem,1fr))] gap-3">
            {stickers.map((sticker) => (
              <li
                key={sticker.id}
                aria-label={sticker.name}
                className="flex flex-col items-center gap-2 rounded-md p-3 ring-1 ring-line"
              >
                {sticker.formatType === 3 ? (
                  <div className="flex size-32 items-center justify-center text-sm text-ink-muted">Lottie</div>
                ) : (
                  // eslint-disable-next-line @next/next/no-img-element -- CDN images at their own size
                  <img
                    src={sticker.url}
                    alt={sticker.name}
                    width={128}
                    height={128}
                    className="size-32 object-contain"
                  />
                )}
                <InlineName
                  value={sticker.name}
                  label={`Name of ${sticker.name}`}
                  schema={NAME}
                  disabled={!sticker.editable}
                  onSave={async (name) =>
                    (
                      await modify.run({
                        guildId,
                        stickerId: sticker.id,
                        name,
                        tags: sticker.tags,
                        description: sticker.description,
                      })
                    ).ok
                  }
                />
                <p className="text-center text-xs text-ink-muted">{sticker.description || "No description"}</p>
                <div className="flex flex-wrap items-center justify-center gap-1 text-xs text-ink-muted">
                  <Badge>{FORMATS[sticker.formatType] ?? "Sticker"}</Badge>
                  <Badge title="Related emoji">{sticker.tags}</Badge>
                  <span>{sticker.uploader ? `by ${sticker.uploader}` : "uploader unknown"}</span>
                </div>
                <ConfirmDelete
                  label={`Delete ${sticker.name}`}
                  disabled={!sticker.editable}
                  title={sticker.editable ? undefined : "Someone else's upload: needs Manage Expressions"}
                  onDelete={() => remove.run({ guildId, stickerId: sticker.id, name: sticker.name })}
                />
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
