// The reader's locale for numbers and dates: the first language of the request's Accept-Language that Intl knows,
// else en-US. The server decides it once per request and hands it to client components (components/ui/locale.tsx),
// so the server's and the browser's text agree at hydration.
import "server-only";
import { cache } from "react";
import { headers } from "next/headers";
import { pickLocale } from "./locale-pick";

export const getRequestLocale = cache(async (): Promise<string> =>
  pickLocale((await headers()).get("accept-language")),
);
