import * as core from "@actions/core";

/**
 * Revokes the tick's installation token (DELETE /installation/token, authenticated by itself).
 * A failure only warns: the token expires within the hour anyway, and the tick's work is done.
 */
export async function revokeToken(apiUrl: string, token: string): Promise<boolean> {
  try {
    const response = await fetch(`${apiUrl}/installation/token`, {
      method: "DELETE",
      headers: {
        authorization: `Bearer ${token}`,
        accept: "application/vnd.github+json",
        "x-github-api-version": "2022-11-28",
      },
      signal: AbortSignal.timeout(15_000),
    });
    if (response.status === 204) return true;
    core.warning(
      `Could not revoke the tick's push token (HTTP ${response.status}); it expires on its own within the hour.`,
    );
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    core.warning(
      `Could not revoke the tick's push token (${reason}); it expires on its own within the hour.`,
    );
  }
  return false;
}
