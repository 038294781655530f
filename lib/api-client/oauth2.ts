// The OAuth2 endpoints a confidential client uses: token exchange, refresh, revocation (client credentials in
// HTTP Basic, form-encoded bodies, RFC 6749 errors), and Get Current Authorization Information.
import type {
  RESTGetAPIOAuth2CurrentAuthorizationResult,
  RESTPostOAuth2AccessTokenResult,
  RESTPostOAuth2RefreshTokenResult,
} from "discord-api-types/v10";
import type { RestClient, RequestOptions } from "./rest";
import { Routes } from "./routes";

export interface OAuth2ClientCredentials {
  clientId: string;
  clientSecret: string;
}

const basic = ({ clientId, clientSecret }: OAuth2ClientCredentials) => ({
  authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString("base64")}`,
});

export class OAuth2API {
  constructor(private readonly rest: RestClient) {}

  /** Token Exchange (authorization_code) */
  tokenExchange(
    client: OAuth2ClientCredentials,
    data: { code: string; redirectUri: string; codeVerifier?: string },
    { signal }: RequestOptions = {},
  ) {
    return this.rest.request<RESTPostOAuth2AccessTokenResult>({
      method: "POST",
      path: Routes.oauth2TokenExchange(),
      form: {
        grant_type: "authorization_code",
        code: data.code,
        redirect_uri: data.redirectUri,
        code_verifier: data.codeVerifier,
      },
      auth: basic(client),
      signal,
    });
  }

  /** Refresh Token Exchange */
  refreshToken(client: OAuth2ClientCredentials, refreshToken: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTPostOAuth2RefreshTokenResult>({
      method: "POST",
      path: Routes.oauth2TokenExchange(),
      form: { grant_type: "refresh_token", refresh_token: refreshToken },
      auth: basic(client),
      signal,
    });
  }

  /** Token Revocation (access or refresh token) */
  revokeToken(
    client: OAuth2ClientCredentials,
    token: string,
    tokenTypeHint?: "access_token" | "refresh_token",
    { signal }: RequestOptions = {},
  ) {
    return this.rest.request<void>({
      method: "POST",
      path: Routes.oauth2TokenRevocation(),
      form: { token, token_type_hint: tokenTypeHint },
      auth: basic(client),
      signal,
    });
  }

  /** Get Current Authorization Information */
  getCurrentAuthorization({ signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIOAuth2CurrentAuthorizationResult>({
      method: "GET",
      path: Routes.oauth2CurrentAuthorization(),
      signal,
    });
  }
}
