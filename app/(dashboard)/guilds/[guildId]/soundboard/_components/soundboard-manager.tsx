"use client";

// Upload Sound (Create Guild Soundboard Sound: name, volume, emoji and the file), play, rename in place, delete.
import { useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
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
  createGuildSoundboardSoundAction,
  deleteGuildSoundboardSoundAction,
  modifyGuildSoundboardSoundAction,
} from "@/lib/dashboard/actions/expressions";
import { SoundFieldsSchema, type SoundFieldsValues } from "@/lib/dashboard/actions/schemas/expressions";
import type { SoundItem } from "@/lib/dashboard/data/expressions";
import { SOUND_MAX_BYTES } from "@/lib/discord/limits";

const NAME = SoundFieldsSchema.shape.name;

export function SoundboardManager({ guildId, sounds, slots }: { guildId: string; sounds: SoundItem[]; slots: number }) {
  const form = useForm<SoundFieldsValues>({
    resolver: zodResolver(SoundFieldsSchema),
    defaultValues: { name: "", volume: 1, emoji_name: "" },
  });
  const { register, handleSubmit, setError, reset, formState, watch } = form;
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [playing, setPlaying] = useState<string | null>(null);
  const audio = useRef<HTMLAudioElement | null>(null);
  const create = useAction(createGuildSoundboardSoundAction, { failure: "Couldn't add the sound" });
  const modify = useAction(modifyGuildSoundboardSoundAction, { failure: "Couldn't rename the sound" });
  const remove = useAction(deleteGuildSoundboardSoundAction, { failure: "Couldn't delete the sound" });
  const full = sounds.length >= slots;

  const play = (sound: SoundItem) => {
    audio.current?.pause();
    const player = new Audio(sound.url);
    player.volume = sound.volume;
    player.onended = () => setPlaying(null);
    player.onerror = () => setPlaying(null);
    audio.current = player;
    setPlaying(sound.id);
    void player.play().catch(() => setPlaying(null));
  };

  const onSubmit = handleSubmit(async (values) => {
    if (!file) return setFileError("Choose an MP3 or OGG file.");
    if (file.size > SOUND_MAX_BYTES) return setFileError("Larger than 512 KB.");
    const result = await create.run({ guildId, ...values, sound: await readAsDataUri(file) });
    if (result.ok) {
      reset();
      setFile(null);
    } else {
      applyFieldErrors(setError, result.fieldErrors, ["name", "volume", "emoji_name"]);
      if (result.fieldErrors.sound) setFileError(result.fieldErrors.sound.join(" "));
    }
  });

  return (
    <div className="flex flex-col gap-6">
      <Card>
        <CardHeader title="Upload sound" description="MP3 or OGG, up to 512 KB and 5.2 seconds." />
        <div className="mb-4">
          <SlotMeter label="Sounds" used={sounds.length} total={slots} />
        </div>
        <form onSubmit={onSubmit} noValidate aria-label="Upload sound" className="grid gap-4 sm:grid-cols-2">
          <div className="sm:col-span-2">
            <FileDrop
              accept="audio/mpeg,audio/ogg,.mp3,.ogg"
              disabled={full}
              label={file ? `${file.name}: choose another` : "Choose a sound or drop it here"}
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
          <Field id="sound-name" label="Sound name" error={formState.errors.name?.message}>
            <Input {...fieldProps("sound-name", formState.errors.name?.message)} {...register("name")} />
          </Field>
          <Field
            id="sound-emoji"
            label="Related emoji"
            hint="Optional: a standard emoji."
            error={formState.errors.emoji_name?.message}
          >
            <Input {...fieldProps("sound-emoji", formState.errors.emoji_name?.message)} {...register("emoji_name")} />
          </Field>
          <Field
            id="sound-volume"
            label={`Volume: ${Math.round(watch("volume") * 100)}%`}
            error={formState.errors.volume?.message}
          >
            <input
              id="sound-volume"
              type="range"
              min={0}
              max={1}
              step={0.01}
              className="w-full accent-blurple"
              {...register("volume", { valueAsNumber: true })}
            />
          </Field>
          <div className="flex items-end justify-end">
            <Button type="submit" pending={create.pending} disabled={full}>
              Upload sound
            </Button>
          </div>
        </form>
      </Card>
      <Card>
        <CardHeader title={`Sounds (${sounds.length})`} description="Play a sound here; click a name to rename it." />
        {sounds.length === 0 ? (
          <EmptyState title="No sounds yet">Upload one above.</EmptyState>
        ) : (
          <ul aria-label="Sounds" className="divide-y divide-line">
            {sounds.map((sound) => (
              <li key={sound.id} aria-label={sound.name} className="flex flex-wrap items-center gap-3 py-2">
                <Button
                  size="sm"
                  variant="secondary"
                  aria-label={`Play ${sound.name}`}
                  aria-pressed={playing === sound.id}
                  onClick={() => play(sound)}
                >
                  {playing === sound.id ? "Playing…" : "▶ Play"}
                </Button>
                <span className="w-8 text-center text-lg" aria-label="Emoji">
                  {sound.emojiUrl ? (
                    // eslint-disable-next-line @next/next/no-img-element -- CDN images at their own size
                    <img
                      src={sound.emojiUrl}
                      alt={sound.emoji ?? ""}
                      width={24}
                      height={24}
                      className="inline size-6"
                    />
                  ) : (
                    (sound.emoji ?? "")
                  )}
                </span>
                <div className="min-w-40 flex-1">
                  <InlineName
                    value={sound.name}
                    label={`Name of ${sound.name}`}
                    schema={NAME}
                    disabled={!sound.editable}
                    onSave={async (name) =>
                      (
                        await modify.run({
                          guildId,
                          soundId: sound.id,
                          name,
                          volume: sound.volume,
                        })
                      ).ok
                    }
                  />
                </div>
                <span className="text-sm tabular-nums text-ink-muted">{Math.round(sound.volume * 100)}%</span>
                <span className="text-xs text-ink-muted">
                  {sound.uploader ? `by ${sound.uploader}` : "uploader unknown"}
                </span>
                <ConfirmDelete
                  label={`Delete ${sound.name}`}
                  disabled={!sound.editable}
                  title={sound.editable ? undefined : "Someone else's upload: needs Manage Expressions"}
                  onDelete={() => remove.run({ guildId, soundId: sound.id, name: sound.name })}
                />
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
