import "server-only";
export {
  getDashboardSession,
  requireDashboardSession,
  currentRequestPath,
  signInPath,
  SESSION_COOKIES,
  REQUEST_URL_HEADER,
  type Actor,
  type DashboardSession,
} from "./session";
export { accessTokenFor, revokeUserTokens, SessionExpiredError, type StoredAccount } from "./tokens";
export { PROVIDER_ID } from "./provider";
