"use client";

// The appeal form's settings: open or closed, the ban's reason shown or not, and up to 5 questions of 200 characters
// (added, edited, removed), checked by the schema the server uses.
import { useFieldArray, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button } from "@/components/ui/button";
import { Field, fieldProps } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { applyFieldErrors, useAction } from "@/components/dashboard/use-action";
import { saveAppealSettingsAction } from "@/lib/dashboard/actions/appeals";
import {
  APPEAL_QUESTION_MAX,
  APPEAL_QUESTIONS_MAX,
  AppealSettingsFormSchema,
  type AppealSettingsFormValues,
} from "@/lib/dashboard/appeals/schemas";

export function AppealSettingsForm({ guildId, defaults }: { guildId: string; defaults: AppealSettingsFormValues }) {
  // Questions as objects for useFieldArray; the action takes plain strings.
  const { register, handleSubmit, control, setError, formState, reset } = useForm<{
    enabled: boolean;
    showReason: boolean;
    questions: Array<{ text: string }>;
  }>({
    defaultValues: { ...defaults, questions: defaults.questions.map((text) => ({ text })) },
    resolver: async (values) => {
      const parsed = await zodResolver(AppealSettingsFormSchema)(
        { ...values, questions: values.questions.map((q) => q.text) },
        undefined,
        { fields: {}, shouldUseNativeValidation: false },
      );
      return Object.keys(parsed.errors).length
        ? { values: {}, errors: remapErrors(parsed.errors) }
        : { values, errors: {} };
    },
  });
  const questions = useFieldArray({ control, name: "questions" });
  const save = useAction(saveAppealSettingsAction, { failure: "Couldn't save the appeal form" });
  const errors = formState.errors;
  return (
    <form
      aria-label="Appeal form"
      className="flex max-w-2xl flex-col gap-4"
      onSubmit={handleSubmit(async (values) => {
        const input = { ...values, questions: values.questions.map((q) => q.text.trim()) };
        const result = await save.run({ guildId, ...input });
        if (result.ok) reset(values);
        else
          applyFieldErrors(
            setError,
            Object.fromEntries(
              Object.entries(result.fieldErrors).map(([path, messages]) => [
                path.replace(/^questions\.(\d+)$/, "questions.$1.text"),
                messages,
              ]),
            ),
          );
      })}
    >
      <label className="flex items-center gap-2 text-sm font-medium">
        <input type="checkbox" className="size-4 accent-blurple" {...register("enabled")} />
        Take ban appeals
      </label>
      <label className="flex items-center gap-2 text-sm font-medium">
        <input type="checkbox" className="size-4 accent-blurple" {...register("showReason")} />
        Show banned users the reason for their ban
      </label>
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-1 text-sm font-semibold">
          Questions ({questions.fields.length}/{APPEAL_QUESTIONS_MAX})
        </legend>
        {questions.fields.map((field, i) => {
          const error = errors.questions?.[i]?.text?.message;
          return (
            <div key={field.id} className="flex items-start gap-2">
              <Field id={`appeal-question-${i}`} label={`Question ${i + 1}`} error={error} className="flex-1">
                <Input
                  {...fieldProps(`appeal-question-${i}`, error)}
                  {...register(`questions.${i}.text` as const)}
                  maxLength={APPEAL_QUESTION_MAX}
                />
              </Field>
              <Button
                variant="ghost"
                size="sm"
                className="mt-7"
                onClick={() => questions.remove(i)}
                disabled={questions.fields.length === 1}
                aria-label={`Remove question ${i + 1}`}
              >
                Remove
              </Button>
            </div>
          );
        })}
        {errors.questions?.root?.message && (
          <p role="alert" className="text-xs font-medium text-danger">
            {errors.questions.root.message}
          </p>
        )}
        <Button
          variant="secondary"
          size="sm"
          className="self-start"
          onClick={() => questions.append({ text: "" })}
          disabled={questions.fields.length >= APPEAL_QUESTIONS_MAX}
        >
          Add a question
        </Button>
      </fieldset>
      <Button type="submit" pending={save.pending} disabled={!formState.isDirty} className="self-start">
        Save
      </Button>
    </form>
  );
}

/** zod's paths on plain strings ("questions.1") to the field array's ("questions.1.text"). */
function remapErrors(errors: Record<string, unknown>): Record<string, unknown> {
  const questions = errors.questions as Record<string, unknown> | undefined;
  if (!questions) return errors;
  const remapped: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(questions)) remapped[key] = /^\d+$/.test(key) ? { text: value } : value;
  if ((questions as { message?: string }).message) remapped.root = questions;
  return { ...errors, questions: remapped };
}
