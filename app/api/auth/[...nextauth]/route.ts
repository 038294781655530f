// next-auth's endpoints (sign-in, OAuth2 callback, sign-out, CSRF) for the dashboard.
import NextAuth from "next-auth";
import { authOptions } from "@/lib/dashboard/auth/options";

type Context = { params: Promise<{ nextauth: string[] }> };

// Options are built per request: they read the environment and the demo secrets, which do not exist at build time.
const handler = (request: Request, context: Context) =>
  NextAuth(request as never, context as never, authOptions()) as Promise<Response>;

export { handler as GET, handler as POST };
