/** OAuth as PayU does it: client_credentials in a form, bearer tokens with `expires_in`. */
import { TokenForm } from "./wire.ts";
import { type FakeContext, payuError, type Reply } from "./context.ts";

/** Answers POST /pl/standard/user/oauth/authorize; `form` is null when not form-encoded. */
export function issueToken(ctx: FakeContext, form: Record<string, string> | null): Reply {
  // PayU: "Without the Content-Type: application/x-www-form-urlencoded header, authentication
  // request will return error 401."
  if (form === null) {
    return oauthError(
      401,
      "invalid_request",
      "Content-Type must be application/x-www-form-urlencoded",
    );
  }
  if (form.grant_type !== undefined && form.grant_type !== "client_credentials") {
    return oauthError(400, "unsupported_grant_type", `Unsupported grant type: ${form.grant_type}`);
  }
  const request = TokenForm.safeParse(form);
  const { clientId, clientSecret } = ctx.credentials;
  if (
    !request.success || request.data.client_id !== clientId ||
    request.data.client_secret !== clientSecret
  ) {
    return oauthError(401, "invalid_client", "Bad client credentials");
  }
  const ttl = ctx.switches().tokenTtlSeconds;
  const token = crypto.randomUUID();
  ctx.state.tokens.set(token, ctx.now() + ttl * 1000);
  return {
    status: 200,
    body: {
      access_token: token,
      token_type: "bearer",
      expires_in: ttl,
      grant_type: "client_credentials",
    },
  };
}

/** Checks an API call's `Authorization: Bearer`; null when the token is valid. */
export function checkBearer(ctx: FakeContext, header: string | null): Reply | null {
  const token = /^Bearer\s+(\S+)$/i.exec(header ?? "")?.[1];
  const expiresAt = token === undefined ? undefined : ctx.state.tokens.get(token);
  if (expiresAt === undefined) return payuError("UNAUTHORIZED", "Invalid access token");
  if (expiresAt <= ctx.now()) {
    ctx.state.tokens.delete(token!);
    return payuError("UNAUTHORIZED", "Access token expired");
  }
  return null;
}

/** Invalidates every token issued so far (PayU revoking them); returns how many. */
export function revokeTokens(ctx: FakeContext): number {
  const count = ctx.state.tokens.size;
  ctx.state.tokens.clear();
  return count;
}

/** Makes every token issued so far expire now, as if their `expires_in` had passed. */
export function expireTokens(ctx: FakeContext): number {
  for (const token of ctx.state.tokens.keys()) ctx.state.tokens.set(token, ctx.now());
  return ctx.state.tokens.size;
}

function oauthError(status: number, error: string, description: string): Reply {
  return { status, body: { error, error_description: description } };
}
