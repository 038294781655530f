"use client";

// Signs the appellant out of the appeal page (their cookie cleared) and shows the page again.
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { Button } from "@/components/ui/button";
import { signOutOfAppealAction } from "../actions";

export function AppealSignOut() {
  const router = useRouter();
  const [pending, start] = useTransition();
  return (
    <Button
      size="sm"
      variant="ghost"
      pending={pending}
      onClick={() =>
        start(async () => {
          await signOutOfAppealAction();
          router.refresh();
        })
      }
    >
      Sign out
    </Button>
  );
}
