import { randomBytes, randomUUID } from "node:crypto";
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import type { Clock } from "./clock.ts";

/** The claims GitHub Actions puts in an ID token (besides iss, aud, exp, iat, nbf, jti). */
export interface ActionsClaims {
  sub: string;
  repository: string;
  repository_id: string;
  repository_owner: string;
  repository_owner_id: string;
  repository_visibility: string;
  actor: string;
  actor_id: string;
  workflow: string;
  workflow_ref: string;
  workflow_sha: string;
  job_workflow_ref: string;
  job_workflow_sha: string;
  event_name: string;
  ref: string;
  ref_type: string;
  ref_protected: string;
  sha: string;
  head_ref: string;
  base_ref: string;
  run_id: string;
  run_number: string;
  run_attempt: string;
  runner_environment: string;
  environment?: string;
  [extra: string]: unknown;
}

export function defaultClaims(overrides: Partial<ActionsClaims> = {}): ActionsClaims {
  const repository = overrides.repository ?? "octo-org/octo-repo";
  const ref = overrides.ref ?? "refs/heads/main";
  const workflowPath = ".github/workflows/loopx.yml";
  const sha = "0".repeat(40);
  return {
    sub: `repo:${repository}:ref:${ref}`,
    repository,
    repository_id: "1",
    repository_owner: repository.split("/")[0] ?? "octo-org",
    repository_owner_id: "1",
    repository_visibility: "private",
    actor: "octocat",
    actor_id: "1",
    workflow: "LoopX tick",
    workflow_ref: `${repository}/${workflowPath}@${ref}`,
    workflow_sha: sha,
    job_workflow_ref: `${repository}/${workflowPath}@${ref}`,
    job_workflow_sha: sha,
    event_name: "workflow_dispatch",
    ref,
    ref_type: "branch",
    ref_protected: "false",
    sha,
    head_ref: "",
    base_ref: "",
    run_id: "1",
    run_number: "1",
    run_attempt: "1",
    runner_environment: "github-hosted",
    ...overrides,
  };
}

/** An OIDC issuer like token.actions.githubusercontent.com, at the sandbox's own URL. */
export class OidcIssuer {
  private readonly requestTokens = new Map<string, Partial<ActionsClaims>>();
  /** Every token minted, with its `aud` and `jti`: what a relying party was handed. */
  readonly minted: Array<ActionsClaims & { aud: string; jti: string }> = [];

  private constructor(
    /** Generated in the background: RSA key generation would dominate the sandbox's startup. */
    private readonly keys: Promise<{ privateKey: CryptoKey; publicJwk: JWK }>,
    private readonly clock: Clock,
    private readonly base: () => string,
  ) {}

  static async create(clock: Clock, base: () => string): Promise<OidcIssuer> {
    const keys = (async () => {
      const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
      const jwk = await exportJWK(publicKey);
      const kid = randomBytes(8).toString("hex");
      return { privateKey, publicJwk: { ...jwk, kid, alg: "RS256", use: "sig" } };
    })();
    keys.catch(() => {});
    return new OidcIssuer(keys, clock, base);
  }

  get issuer(): string {
    return this.base();
  }

  discovery(): Record<string, unknown> {
    return {
      issuer: this.issuer,
      jwks_uri: `${this.issuer}/.well-known/jwks`,
      subject_types_supported: ["public", "pairwise"],
      response_types_supported: ["id_token"],
      claims_supported: [
        "sub",
        "aud",
        "exp",
        "iat",
        "iss",
        "jti",
        "nbf",
        "ref",
        "sha",
        "repository",
        "repository_id",
        "repository_owner",
        "repository_owner_id",
        "run_id",
        "run_number",
        "run_attempt",
        "actor",
        "actor_id",
        "workflow",
        "workflow_ref",
        "workflow_sha",
        "job_workflow_ref",
        "job_workflow_sha",
        "event_name",
        "ref_type",
        "runner_environment",
      ],
      id_token_signing_alg_values_supported: ["RS256"],
      scopes_supported: ["openid"],
    };
  }

  async jwks(): Promise<{ keys: JWK[] }> {
    return { keys: [(await this.keys).publicJwk] };
  }

  /** Mints an ID token for any audience, as GitHub does (default audience: the repo owner's URL). */
  async mintIdToken(
    options: { audience?: string; claims?: Partial<ActionsClaims>; ttlSeconds?: number } = {},
  ): Promise<string> {
    const { privateKey, publicJwk } = await this.keys;
    const claims = defaultClaims(options.claims);
    const now = Math.floor(this.clock.now() / 1000);
    const aud = options.audience ?? `https://github.com/${claims.repository_owner}`;
    const jti = randomUUID();
    this.minted.push({ ...claims, aud, jti });
    return new SignJWT({ ...claims })
      .setProtectedHeader({
        alg: "RS256",
        kid: publicJwk.kid ?? "",
        typ: "JWT",
        x5t: publicJwk.kid ?? "",
      })
      .setIssuer(this.issuer)
      .setAudience(aud)
      .setSubject(claims.sub)
      .setJti(jti)
      .setIssuedAt(now)
      .setNotBefore(now - 5)
      .setExpirationTime(now + (options.ttlSeconds ?? 300))
      .sign(privateKey);
  }

  /** What a runner gets for a job granted `id-token: write`: the request URL and bearer token. */
  requestCredentials(claims: Partial<ActionsClaims> = {}): { url: string; token: string } {
    const token = randomBytes(24).toString("hex");
    this.requestTokens.set(token, claims);
    return { url: `${this.issuer}/_services/idtoken?api-version=2.0`, token };
  }

  /** Ends a job's OIDC request token (the runner does so when the job ends). */
  revokeRequest(token: string): void {
    this.requestTokens.delete(token);
  }

  /** Serves the runner endpoint: bearer request token + `audience` → `{ value: jwt }`. */
  async answerRequest(
    authorization: string | undefined,
    audience: string | null,
  ): Promise<{ status: number; body: unknown }> {
    const token = /^bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1];
    const claims = token ? this.requestTokens.get(token) : undefined;
    if (!claims) return { status: 401, body: { message: "Unauthorized" } };
    const value = await this.mintIdToken(audience ? { audience, claims } : { claims });
    return { status: 200, body: { count: value.length, value } };
  }
}
