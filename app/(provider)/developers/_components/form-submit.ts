// Form submission through a server action without React's automatic form reset: the reset puts controlled
// checkboxes and radios back to their first-render state while React's state says otherwise.
import { startTransition, type FormEvent } from "react";

export function submitThrough(dispatch: (form: FormData) => void, check?: () => boolean) {
  return (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (check && !check()) return;
    const form = new FormData(event.currentTarget);
    startTransition(() => dispatch(form));
  };
}
