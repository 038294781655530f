"use client";

// Upload (several files at once, dropped or picked), rename in place, delete. Each file becomes one Create Guild
// Emoji call, named after the file; the API decodes it and says why when it refuses.
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Card, CardHeader, EmptyState } from "@/components/ui/card";
import { useAction } from "@/components/dashboard/use-action";
import { ConfirmDelete } from "@/components/expressions/confirm-delete";
import { FileDrop, readAsDataUri } from "@/components/expressions/file-drop";
import { InlineName } from "@/components/expressions/inline-name";
import { SlotMeter } from "@/components/expressions/slot-meter";
import {
  createGuildEmojiAction,
  deleteGuildEmojiAction,
  modifyGuildEmojiAction,
} from "@/lib/dashboard/actions/expressions";
import { EmojiNameSchema, emojiNameFromFile } from "@/lib/dashboard/actions/schemas/expressions";
import type { EmojiItem } from "@/lib/dashboard/data/expressions";
import { EMOJI_IMAGE_MAX_BYTES } from "@/lib/discord/limits";

interface Outcome {
  file: string;
  ok: boolean;
  message: string;
}

export function EmojiManager({ guildId, emojis, slots }: { guildId: string; emojis: EmojiItem[]; slots: number }) {
  const create = useAction(createGuildEmojiAction, { quiet: true });
  const modify = useAction(modifyGuildEmojiAction, { failure: "Couldn't rename the emoji" });
  const remove = useAction(deleteGuildEmojiAction, { failure: "Couldn't delete the emoji" });
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);
  const [uploading, setUploading] = useState(false);
  const staticCount = emojis.filter((emoji) => !emoji.animated).length;

  const upload = async (files: File[]) => {
    setUploading(true);
    setOutcomes([]);
    for (const file of files) {
      const name = emojiNameFromFile(file.name);
      let outcome: Outcome;
      if (file.size > EMOJI_IMAGE_MAX_BYTES) outcome = { file: file.name, ok: false, message: "Larger than 256 KB." };
      else {
        const result = await create.run({ guildId, name, image: await readAsDataUri(file) });
        outcome = result.ok
          ? { file: file.name, ok: true, message: `Uploaded as :${name}:` }
          : { file: file.name, ok: false, message: result.error };
      }
      setOutcomes((done) => [...done, outcome]);
    }
    setUploading(false);
  };

  return (
    <div className="flex flex-col gap-6">
      <Card>
        <CardHeader
          title="Upload emoji"
          description="PNG, JPEG or GIF, up to 256 KB each; the file's name becomes the emoji's name."
        />
        <div className="mb-4 flex flex-wrap gap-6">
          <SlotMeter label="Emoji" used={staticCount} total={slots} />
          <SlotMeter label="Animated emoji" used={emojis.length - staticCount} total={slots} />
        </div>
        <FileDrop
          accept="image/png,image/jpeg,image/gif"
          multiple
          disabled={uploading}
          label="Choose images or drop them here"
          hint="Several at once: each becomes an emoji."
          onFiles={upload}
        />
        {outcomes.length > 0 && (
          <ul aria-label="Upload results" className="mt-3 flex flex-col gap-1 text-sm">
            {outcomes.map((outcome, index) => (
              <li key={index} className={outcome.ok ? "text-success-ink" : "text-danger-ink"}>
                {outcome.file}: {outcome.message}
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card>
        <CardHeader title={`Emoji (${emojis.length})`} description="Click a name to rename it." />
        {emojis.length === 0 ? (
          <EmptyState title="No custom emoji yet">Upload some above.</EmptyState>
        ) : (
          <ul aria-label="Emoji" className="grid grid-cols-[repeat(auto-fill,minmax(10rem,1fr))] gap-3">
            {emojis.map((emoji) => (
              <li
                key={emoji.id}
                aria-label={`:${emoji.name}:`}
                className="flex flex-col items-center gap-2 rounded-md p-3 ring-1 ring-line"
              >
                {/* eslint-disable-next-line @next/next/no-img-element -- CDN images at their own size */}
                <img
                  src={emoji.url}
                  alt={`:${emoji.name}:`}
                  width={48}
                  height={48}
                  className="size-12 object-contain"
                />
                <InlineName
                  value={emoji.name}
                  label={`Name of :${emoji.name}:`}
                  schema={EmojiNameSchema}
                  prefix=":"
                  disabled={!emoji.editable}
                  onSave={async (name) => (await modify.run({ guildId, emojiId: emoji.id, name })).ok}
                />
                <div className="flex flex-wrap items-center justify-center gap-1 text-xs text-ink-muted">
                  {emoji.animated && <Badge tone="blurple">Animated</Badge>}
                  <span>{emoji.uploader ? `by ${emoji.uploader}` : "uploader unknown"}</span>
                </div>
                <ConfirmDelete
                  label={`Delete :${emoji.name}:`}
                  disabled={!emoji.editable}
                  title={emoji.editable ? undefined : "Someone else's upload: needs Manage Expressions"}
                  onDelete={() => remove.run({ guildId, emojiId: emoji.id, name: emoji.name })}
                />
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
