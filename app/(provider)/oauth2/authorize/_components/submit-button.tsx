"use client";

// A submit button that shows the form's pending state (React's useFormStatus) so a slow round trip is not clicked twice.
import { useFormStatus } from "react-dom";
import { Button, type ButtonProps } from "@/components/ui/button";

export function SubmitButton({ children, ...props }: Omit<ButtonProps, "type" | "pending">) {
  const { pending, data } = useFormStatus();
  // Only the button that submitted spins; its twin (Authorize / Cancel) is just disabled.
  const mine = pending && (props.name === undefined || data?.get(props.name) === props.value);
  return (
    <Button {...props} type="submit" pending={mine} disabled={pending || props.disabled}>
      {children}
    </Button>
  );
}
