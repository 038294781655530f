"use client";

// The appeal's questions, each answered in 1 to 1,000 characters (the schema the server checks again), and Send.
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { Field, fieldProps } from "@/components/ui/field";
import { Textarea } from "@/components/ui/input";
import { applyFieldErrors, useAction } from "@/components/dashboard/use-action";
import { APPEAL_ANSWER_MAX, AppealAnswersSchema } from "@/lib/dashboard/appeals/schemas";
import { submitAppealAction } from "../actions";

const FormSchema = z.object({ answers: AppealAnswersSchema });

export function AppealForm({ guildId, questions }: { guildId: string; questions: string[] }) {
  const router = useRouter();
  const { register, handleSubmit, setError, formState } = useForm<{ answers: string[] }>({
    resolver: zodResolver(FormSchema),
    defaultValues: { answers: questions.map(() => "") },
  });
  const send = useAction(submitAppealAction, { failure: "Your appeal wasn't sent" });
  return (
    <form
      aria-label="Your appeal"
      className="flex flex-col gap-4"
      onSubmit={handleSubmit(async (values) => {
        const result = await send.run({ guildId, answers: values.answers });
        if (result.ok) router.refresh();
        else
          applyFieldErrors(
            setError,
            result.fieldErrors,
            questions.map((_, i) => `answers.${i}`),
          );
      })}
    >
      {questions.map((question, i) => {
        const error = formState.errors.answers?.[i]?.message;
        return (
          <Field key={i} id={`appeal-answer-${i}`} label={question} error={error}>
            <Textarea
              {...fieldProps(`appeal-answer-${i}`, error)}
              {...register(`answers.${i}` as const)}
              rows={4}
              maxLength={APPEAL_ANSWER_MAX}
            />
          </Field>
        );
      })}
      <Button type="submit" pending={send.pending}>
        Send appeal
      </Button>
    </form>
  );
}
