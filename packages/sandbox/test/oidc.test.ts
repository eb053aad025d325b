import { createRemoteJWKSet, errors, generateKeyPair, jwtVerify, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../src/index.ts";

describe("OIDC issuer like GitHub Actions'", () => {
  let sandbox: Sandbox;
  let jwks: ReturnType<typeof createRemoteJWKSet>;
  const audience = "https://loopx.example/api";
  const claims = {
    repository: "acme/widgets",
    repository_id: "42",
    repository_owner_id: "7",
    run_id: "99",
    actor: "alice",
  };
  const verify = (token: string, options: { audience?: string; issuer?: string } = {}) =>
    jwtVerify(token, jwks, {
      issuer: options.issuer ?? sandbox.url,
      audience: options.audience ?? audience,
      currentDate: new Date(sandbox.clock.now()),
    });

  beforeAll(async () => {
    sandbox = await createSandbox();
    jwks = createRemoteJWKSet(new URL(`${sandbox.url}/.well-known/jwks`));
  });
  afterAll(() => sandbox.stop());

  it("serves discovery and a JWKS", async () => {
    const discovery = await (await fetch(`${sandbox.url}/.well-known/openid-configuration`)).json();
    expect(discovery).toMatchObject({
      issuer: sandbox.url,
      jwks_uri: `${sandbox.url}/.well-known/jwks`,
      id_token_signing_alg_values_supported: ["RS256"],
    });
  });

  it("accepts a good token with the full claim set", async () => {
    const { payload } = await verify(await sandbox.oidc.mintIdToken({ audience, claims }));
    for (const claim of [
      "sub",
      "aud",
      "iss",
      "exp",
      "iat",
      "nbf",
      "jti",
      "repository",
      "repository_id",
      "repository_owner",
      "repository_owner_id",
      "workflow_ref",
      "job_workflow_ref",
      "event_name",
      "ref",
      "run_id",
      "run_attempt",
      "actor",
      "sha",
      "workflow",
      "ref_type",
      "runner_environment",
    ]) {
      expect(payload[claim], claim).toBeDefined();
    }
    expect(payload).toMatchObject({
      repository_id: "42",
      sub: "repo:acme/widgets:ref:refs/heads/main",
    });
  });

  it("rejects a wrong audience, an expired token, a wrong issuer, a tampered token and a foreign key", async () => {
    const good = await sandbox.oidc.mintIdToken({ audience, claims });
    await expect(verify(good, { audience: "other" })).rejects.toBeInstanceOf(
      errors.JWTClaimValidationFailed,
    );
    await expect(
      verify(good, { issuer: "https://token.actions.githubusercontent.com" }),
    ).rejects.toBeInstanceOf(errors.JWTClaimValidationFailed);
    const [h, p, s] = good.split(".");
    const payload = JSON.parse(Buffer.from(p ?? "", "base64url").toString());
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...payload, repository_id: "1" })).toString("base64url")}.${s}`;
    await expect(verify(tampered)).rejects.toBeInstanceOf(errors.JWSSignatureVerificationFailed);
    const { privateKey } = await generateKeyPair("RS256");
    const foreign = await new SignJWT(payload)
      .setProtectedHeader({
        alg: "RS256",
        kid: JSON.parse(Buffer.from(h ?? "", "base64url").toString()).kid,
      })
      .sign(privateKey);
    await expect(verify(foreign)).rejects.toBeInstanceOf(errors.JWSSignatureVerificationFailed);
    await sandbox.clock.advance(10 * 60 * 1000);
    await expect(verify(good)).rejects.toBeInstanceOf(errors.JWTExpired);
  });

  it("answers the runner endpoint (ACTIONS_ID_TOKEN_REQUEST_URL/TOKEN) for any audience", async () => {
    const { url, token } = sandbox.oidc.requestCredentials(claims);
    const res = await fetch(`${url}&audience=${encodeURIComponent(audience)}`, {
      headers: { authorization: `bearer ${token}` },
    });
    const { value } = (await res.json()) as { value: string };
    const { payload } = await verify(value);
    expect(payload.run_id).toBe("99");
    expect(
      (await fetch(`${url}&audience=x`, { headers: { authorization: "bearer nope" } })).status,
    ).toBe(401);
  });
});
