"use client";

// One onboarding question and its options: type, title, the single-select / required / in-onboarding switches, and
// per option a title, description, emoji, and the channels and roles it adds.
import {
  useFieldArray,
  useWatch,
  type Control,
  type FieldErrors,
  type UseFormRegister,
  type UseFormSetValue,
} from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Field, fieldProps } from "@/components/ui/field";
import { Icons } from "@/components/ui/icons";
import { Input, Select } from "@/components/ui/input";
import { EmojiPicker, type GuildEmoji } from "@/components/dashboard/emoji-picker";
import {
  PROMPT_TYPES,
  type OnboardingValues,
  type PromptOptionValues,
} from "@/lib/dashboard/actions/schemas/onboarding";
import { ONBOARDING_OPTIONS_MAX } from "@/lib/discord/limits";
import { newSnowflake } from "@/lib/discord/snowflake";
import { ChipPicker, type ChipItem } from "./chip-picker";

export const newOption = (): PromptOptionValues => ({
  id: String(newSnowflake()),
  title: "",
  description: "",
  emoji_id: null,
  emoji_name: null,
  emoji_animated: false,
  channel_ids: [],
  role_ids: [],
});

export function PromptEditor({
  index,
  control,
  register,
  setValue,
  errors,
  channels,
  roles,
  emojis,
  onRemove,
}: {
  index: number;
  control: Control<OnboardingValues>;
  register: UseFormRegister<OnboardingValues>;
  setValue: UseFormSetValue<OnboardingValues>;
  errors: FieldErrors<OnboardingValues>["prompts"];
  channels: readonly ChipItem[];
  roles: readonly ChipItem[];
  emojis: readonly GuildEmoji[];
  onRemove: () => void;
}) {
  const options = useFieldArray({ control, name: `prompts.${index}.options` });
  const e = errors?.[index];
  const q = index + 1;
  const base = `prompts.${index}` as const;
  return (
    <li className="rounded-md p-3 ring-1 ring-line sm:p-4" aria-label={`Question ${q}`}>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-[minmax(0,1fr)_12rem]">
        <Field id={`${base}.title`} label={`Question ${q}`} error={e?.title?.message}>
          <Input
            {...fieldProps(`${base}.title`, e?.title?.message)}
            placeholder="What brings you here?"
            {...register(`${base}.title`)}
          />
        </Field>
        <Field id={`${base}.type`} label="Type">
          <Select {...fieldProps(`${base}.type`)} {...register(`${base}.type`, { setValueAs: Number })}>
            {PROMPT_TYPES.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <div className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-sm">
        {(
          [
            ["single_select", "Members pick one answer"],
            ["required", "Required"],
            ["in_onboarding", "Ask during onboarding"],
          ] as const
        ).map(([key, label]) => (
          <label key={key} className="flex items-center gap-2">
            <input type="checkbox" className="size-4 accent-blurple" {...register(`${base}.${key}`)} />
            {label}
          </label>
        ))}
      </div>

      <p className="mb-2 mt-4 text-sm font-medium">
        Options ({options.fields.length} of {ONBOARDING_OPTIONS_MAX})
      </p>
      {e?.options?.message && (
        <p role="alert" className="mb-2 text-xs font-medium text-danger">
          {e.options.message}
        </p>
      )}
      <ol className="flex flex-col gap-3">
        {options.fields.map((field, o) => {
          const oe = e?.options?.[o];
          const path = `${base}.options.${o}` as const;
          const n = `${q}.${o + 1}`;
          return (
            <li
              key={field.id}
              className="grid grid-cols-1 gap-3 rounded-md bg-surface-sunken/50 p-3 md:grid-cols-2"
              aria-label={`Option ${n}`}
            >
              <Field id={`${path}.title`} label={`Option ${n} title`} error={oe?.title?.message}>
                <Input {...fieldProps(`${path}.title`, oe?.title?.message)} {...register(`${path}.title`)} />
              </Field>
              <Field id={`${path}.description`} label={`Option ${n} description`} error={oe?.description?.message}>
                <Input
                  {...fieldProps(`${path}.description`, oe?.description?.message)}
                  {...register(`${path}.description`)}
                />
              </Field>
              <OptionPickers
                path={path}
                label={`Option ${n}`}
                control={control}
                setValue={setValue}
                channels={channels}
                roles={roles}
                emojis={emojis}
                errors={oe}
              />
              <div className="flex items-end justify-end">
                <Button
                  size="sm"
                  variant="ghost"
                  className="text-danger"
                  disabled={options.fields.length === 1}
                  onClick={() => options.remove(o)}
                >
                  Remove option {n}
                </Button>
              </div>
            </li>
          );
        })}
      </ol>
      <div className="mt-3 flex flex-wrap justify-between gap-2">
        <Button
          size="sm"
          variant="secondary"
          disabled={options.fields.length >= ONBOARDING_OPTIONS_MAX}
          onClick={() => options.append(newOption())}
        >
          <Icons.plus className="size-4" /> Add option
        </Button>
        <Button size="sm" variant="ghost" className="text-danger" onClick={onRemove}>
          Remove question {q}
        </Button>
      </div>
    </li>
  );
}

/** The option's emoji, channels and roles: controlled values set field by field, so typed fields stay untouched. */
function OptionPickers({
  path,
  label,
  control,
  setValue,
  channels,
  roles,
  emojis,
  errors,
}: {
  path: `prompts.${number}.options.${number}`;
  label: string;
  control: Control<OnboardingValues>;
  setValue: UseFormSetValue<OnboardingValues>;
  channels: readonly ChipItem[];
  roles: readonly ChipItem[];
  emojis: readonly GuildEmoji[];
  errors: FieldErrors<PromptOptionValues> | undefined;
}) {
  const value = useWatch({ control, name: path });
  const set = { shouldDirty: true, shouldValidate: true } as const;
  return (
    <>
      <Field id={`${path}.emoji`} label={`${label} emoji`} error={errors?.emoji_name?.message}>
        <EmojiPicker
          id={`${path}.emoji`}
          label={`${label} emoji`}
          value={{ emoji_id: value.emoji_id, emoji_name: value.emoji_name }}
          emojis={emojis}
          error={errors?.emoji_name?.message}
          onChange={(emoji) => {
            setValue(`${path}.emoji_id`, emoji.emoji_id, set);
            setValue(`${path}.emoji_name`, emoji.emoji_name, set);
            setValue(
              `${path}.emoji_animated`,
              Boolean(emoji.emoji_id && emojis.find((x) => x.id === emoji.emoji_id)?.animated),
              set,
            );
          }}
        />
      </Field>
      <ChipPicker
        id={`${path}.channel_ids`}
        label={`${label} channels`}
        items={channels}
        value={value.channel_ids}
        error={errors?.channel_ids?.message}
        onChange={(ids) => setValue(`${path}.channel_ids`, ids, set)}
      />
      <ChipPicker
        id={`${path}.role_ids`}
        label={`${label} roles`}
        items={roles}
        value={value.role_ids}
        error={errors?.role_ids?.message}
        onChange={(ids) => setValue(`${path}.role_ids`, ids, set)}
      />
    </>
  );
}
