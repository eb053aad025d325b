/**
 * Which GitHub LoopX talks to, from GITHUB_API_URL / GITHUB_SERVER_URL or GHE_HOST (the
 * variables Probot reads): its REST root, its web root (links, the manifest form) and the
 * issuer of its Actions OIDC tokens — github.com's own, or `https://HOSTNAME/_services/token`
 * on GitHub Enterprise Server (OpenID Connect reference → OIDC token claims, `iss`).
 */
export interface GitHubHost {
  apiUrl: string;
  serverUrl: string;
  oidcIssuer: string;
}

export interface GitHubHostInput {
  GITHUB_API_URL?: string | undefined;
  GITHUB_SERVER_URL?: string | undefined;
  GHE_HOST?: string | undefined;
  GHE_PROTOCOL?: "http" | "https" | undefined;
}

const trim = (url: string) => url.replace(/\/+$/, "");

export function githubHost(input: GitHubHostInput): GitHubHost {
  const apiUrl = trim(
    input.GITHUB_API_URL ??
      (input.GHE_HOST
        ? `${input.GHE_PROTOCOL ?? "https"}://${input.GHE_HOST}/api/v3`
        : "https://api.github.com"),
  );
  const api = new URL(apiUrl);
  const dotCom = api.hostname === "api.github.com";
  const serverUrl = trim(
    input.GITHUB_SERVER_URL ?? (dotCom ? "https://github.com" : `${api.protocol}//${api.host}`),
  );
  return {
    apiUrl,
    serverUrl,
    oidcIssuer: dotCom
      ? "https://token.actions.githubusercontent.com"
      : `${serverUrl}/_services/token`,
  };
}
