import * as core from "@actions/core";

/**
 * A fresh GitHub Actions OIDC ID token for the LoopX audience. The App accepts each token once
 * (its `jti`), so every API call asks for a new one.
 */
export async function getIdToken(audience: string): Promise<string> {
  if (!process.env.ACTIONS_ID_TOKEN_REQUEST_URL || !process.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN) {
    throw new Error(
      "This job cannot get an OIDC ID token for LoopX: give the job `permissions: { id-token: write }` " +
        "(the ask and report jobs of loopx-tick.yml and the wake job need it; the agent job must not have it).",
    );
  }
  try {
    return await core.getIDToken(audience);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Could not get an OIDC ID token for audience "${audience}": ${reason}`, {
      cause: error,
    });
  }
}
