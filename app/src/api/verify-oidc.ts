import { createRemoteJWKSet, errors, jwtVerify } from "jose";
import { z } from "zod";
import { unauthenticated, unavailable } from "./api-failure.ts";
import type { TickApiSettings } from "./settings.ts";

/** GitHub sends numeric ids as decimal strings; they are compared as numbers. */
const NumericId = z
  .string()
  .regex(/^[1-9][0-9]{0,18}$/, "a decimal id")
  .transform(Number)
  .pipe(z.number().int().positive().max(Number.MAX_SAFE_INTEGER));

/** The Actions ID token claims the tick API relies on (the rest are ignored). */
export const ActionsClaims = z.object({
  jti: z.string().min(1).max(256),
  exp: z.number().int(),
  iat: z.number().int(),
  repository: z.string().min(3),
  repository_id: NumericId,
  repository_owner_id: NumericId,
  workflow_ref: z.string().min(1),
  job_workflow_ref: z.string().min(1),
  event_name: z.string().min(1),
  ref: z.string(),
  run_id: NumericId,
  run_attempt: NumericId,
});
export type ActionsClaims = z.infer<typeof ActionsClaims>;

export interface OidcVerifier {
  /** Verifies `Authorization: Bearer <id token>`; throws an ApiFailure (401/503) otherwise. */
  verify(authorization: string | undefined): Promise<ActionsClaims>;
}

const CLAIM_HINTS: Record<string, string> = {
  aud: "request the ID token for the App's audience (the action's `audience` input)",
  iss: "the token comes from another OIDC issuer than the App is configured with",
  iat: "the token was issued too long ago; request a fresh ID token for each call",
  nbf: "the token is not valid yet; check the runner's clock",
};

function refusal(error: unknown, settings: TickApiSettings) {
  if (error instanceof errors.JWTExpired) {
    return unauthenticated(
      "The OIDC token has expired. Request a fresh ID token right before each call (the report job must not reuse the ask job's token).",
    );
  }
  if (error instanceof errors.JWTClaimValidationFailed) {
    const hint = CLAIM_HINTS[error.claim] ?? "check the workflow's `id-token: write` permission";
    const expected =
      error.claim === "aud"
        ? ` (expected "${settings.audience}")`
        : error.claim === "iss"
          ? ` (expected "${settings.issuer}")`
          : "";
    return unauthenticated(
      `The OIDC token's "${error.claim}" claim was refused${expected}: ${hint}.`,
    );
  }
  if (error instanceof errors.JWKSTimeout) {
    return unavailable(
      "The OIDC issuer's signing keys could not be fetched in time; retry shortly.",
    );
  }
  if (error instanceof errors.JOSEError) {
    return unauthenticated(
      `The OIDC token is not a valid GitHub Actions ID token (${error.code}); request one with core.getIDToken(audience).`,
    );
  }
  // A network failure fetching the JWKS is ours (or the issuer's), not the caller's fault.
  return unavailable("The OIDC issuer's signing keys could not be fetched; retry shortly.");
}

/**
 * Verifies GitHub Actions OIDC ID tokens with jose against the issuer's JWKS: RS256 only,
 * the configured issuer and audience, exp/nbf/iat within a small tolerance, and a bounded age.
 * Claims are parsed with zod; anything missing or malformed is a 401.
 */
export function createOidcVerifier(settings: TickApiSettings, now: () => Date): OidcVerifier {
  const jwksUrl = new URL(
    settings.jwksUrl ?? `${settings.issuer.replace(/\/+$/, "")}/.well-known/jwks`,
  );
  const jwks = createRemoteJWKSet(jwksUrl, { timeoutDuration: 5000, cooldownDuration: 30_000 });
  return {
    async verify(authorization) {
      const token = /^bearer\s+([A-Za-z0-9._-]+)$/i.exec(authorization?.trim() ?? "")?.[1];
      if (!token) {
        throw unauthenticated(
          "Send the job's GitHub Actions OIDC ID token as `Authorization: Bearer <token>` (the job needs `permissions: id-token: write`).",
        );
      }
      let payload: unknown;
      try {
        ({ payload } = await jwtVerify(token, jwks, {
          algorithms: ["RS256"],
          issuer: settings.issuer,
          audience: settings.audience,
          clockTolerance: settings.clockToleranceSeconds,
          maxTokenAge: settings.maxTokenAgeSeconds,
          currentDate: now(),
          requiredClaims: ["exp", "iat", "jti"],
        }));
      } catch (error) {
        throw refusal(error, settings);
      }
      const claims = ActionsClaims.safeParse(payload);
      if (!claims.success) {
        const fields = [...new Set(claims.error.issues.map((i) => i.path.join(".")))].join(", ");
        throw unauthenticated(
          `The OIDC token lacks GitHub Actions claims the App needs (${fields}); it must be minted by a GitHub Actions job.`,
        );
      }
      return claims.data;
    },
  };
}
