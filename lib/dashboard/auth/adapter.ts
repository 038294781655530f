// next-auth's adapter over the dashboard's own tables (DashboardUser/Account/Session). Written out instead of
// @next-auth/prisma-adapter because the models carry Guildhall names, and because linkAccount must store only the
// columns the table has (a provider may answer extra token fields).
import type { Adapter, AdapterAccount, AdapterSession, AdapterUser } from "next-auth/adapters";
import "server-only";
import type { PrismaClient } from "@/lib/generated/prisma";
import { forgetAllSessions, forgetSession, forgetUserSessions } from "./session-cache";
import { encryptToken } from "./token-encryption";

type UserRow = {
  id: string;
  name: string | null;
  email: string | null;
  emailVerified: Date | null;
  image: string | null;
};

const toAdapterUser = (row: UserRow): AdapterUser => ({ ...row, email: row.email ?? "" });

/** The token columns of DashboardAccount, picked from whatever the provider answered, tokens encrypted. */
export function accountTokenFields(account: Partial<AdapterAccount>) {
  return {
    access_token: encryptToken(account.access_token, "access_token"),
    refresh_token: encryptToken(account.refresh_token, "refresh_token"),
    expires_at: typeof account.expires_at === "number" ? Math.floor(account.expires_at) : null,
    token_type: account.token_type ?? null,
    scope: account.scope ?? null,
    id_token: encryptToken(account.id_token, "id_token"),
    session_state: typeof account.session_state === "string" ? account.session_state : null,
  };
}

export function dashboardAdapter(prisma: PrismaClient): Adapter {
  return {
    async createUser(user: Omit<AdapterUser, "id">) {
      const { name, email, emailVerified, image } = user;
      return toAdapterUser(
        await prisma.dashboardUser.create({
          data: {
            name: name ?? null,
            email: email || null,
            emailVerified: emailVerified ?? null,
            image: image ?? null,
          },
        }),
      );
    },
    async getUser(id) {
      const row = await prisma.dashboardUser.findUnique({ where: { id } });
      return row ? toAdapterUser(row) : null;
    },
    async getUserByEmail(email) {
      if (!email) return null;
      const row = await prisma.dashboardUser.findUnique({ where: { email } });
      return row ? toAdapterUser(row) : null;
    },
    async getUserByAccount({ provider, providerAccountId }) {
      const account = await prisma.dashboardAccount.findUnique({
        where: { provider_providerAccountId: { provider, providerAccountId } },
        include: { user: true },
      });
      return account ? toAdapterUser(account.user) : null;
    },
    async updateUser({ id, name, image }) {
      forgetUserSessions(id);
      return toAdapterUser(
        await prisma.dashboardUser.update({
          where: { id },
          data: { ...(name !== undefined ? { name } : {}), ...(image !== undefined ? { image } : {}) },
        }),
      );
    },
    async deleteUser(id) {
      forgetUserSessions(id);
      await prisma.dashboardUser.delete({ where: { id } });
    },
    async linkAccount(a: AdapterAccount) {
      forgetUserSessions(a.userId);
      await prisma.dashboardAccount.create({
        data: {
          userId: a.userId,
          type: a.type,
          provider: a.provider,
          providerAccountId: a.providerAccountId,
          ...accountTokenFields(a),
        },
      });
    },
    async unlinkAccount({ provider, providerAccountId }: Pick<AdapterAccount, "provider" | "providerAccountId">) {
      forgetAllSessions();
      await prisma.dashboardAccount.delete({ where: { provider_providerAccountId: { provider, providerAccountId } } });
    },
    async createSession(session) {
      return prisma.dashboardSession.create({ data: session });
    },
    async getSessionAndUser(sessionToken) {
      const row = await prisma.dashboardSession.findUnique({ where: { sessionToken }, include: { user: true } });
      if (!row) return null;
      const { user, ...session } = row;
      return { session: session as AdapterSession, user: toAdapterUser(user) };
    },
    async updateSession({ sessionToken, expires }) {
      forgetSession(sessionToken);
      try {
        return await prisma.dashboardSession.update({ where: { sessionToken }, data: expires ? { expires } : {} });
      } catch {
        return null;
      }
    },
    // Returns the deleted session: next-auth hands it to events.signOut, which revokes the grant.
    async deleteSession(sessionToken) {
      const row = await prisma.dashboardSession.findUnique({ where: { sessionToken } });
      await prisma.dashboardSession.deleteMany({ where: { sessionToken } });
      forgetSession(sessionToken);
      return row;
    },
  };
}
