import type { GitHubAppPort } from "@loopx/github";
import type { ProbotOctokit } from "probot";
import { z } from "zod";
import { toGitHubError } from "./octokit-port.ts";

type Octokit = InstanceType<typeof ProbotOctokit>;

const AccessToken = z.object({ token: z.string().min(1), expires_at: z.string() });

/**
 * The App-identity verbs over an Octokit authenticated as the App (`await probot.auth()`,
 * no installation id: it signs a JWT per request). `fetchImpl` is for the revocation, which
 * authenticates with the token being revoked rather than the App.
 */
export function createOctokitAppPort(
  appOctokit: Octokit,
  fetchImpl: typeof fetch = fetch,
): GitHubAppPort {
  const baseUrl = z.string().parse(appOctokit.request.endpoint.DEFAULTS.baseUrl);
  return {
    async mintRepoToken(installationId, repositoryId, permissions) {
      try {
        const { data } = await appOctokit.rest.apps.createInstallationAccessToken({
          installation_id: installationId,
          repository_ids: [repositoryId],
          permissions,
        });
        const parsed = AccessToken.parse(data);
        return { token: parsed.token, expiresAt: new Date(parsed.expires_at) };
      } catch (error) {
        throw toGitHubError(
          `minting a push token for repository ${repositoryId} (installation ${installationId})`,
          error,
        );
      }
    },
    async revokeToken(token) {
      const res = await fetchImpl(`${baseUrl}/installation/token`, {
        method: "DELETE",
        headers: {
          authorization: `token ${token}`,
          accept: "application/vnd.github+json",
          "x-github-api-version": "2022-11-28",
        },
      });
      // 401: already expired or revoked — the goal (a dead token) holds either way.
      if (res.status !== 204 && res.status !== 401) {
        throw toGitHubError("revoking a push token", {
          status: res.status,
          message: await res.text(),
        });
      }
    },
  };
}
