/**
 * The GitHub side of dashboard sign-in: the App's user-authorization web flow (authorize URL,
 * code → user-to-server token) and, with a person's token, who they are and whether they can
 * read a repository. Every answer is zod-parsed; tokens go only into Authorization headers,
 * never into URLs, messages or logs.
 */
import { z } from "zod";

export interface GitHubUserAuthConfig {
  clientId: string;
  clientSecret: string;
  /** GitHub's web root, where /login/oauth lives (https://github.com, GHES, the sandbox). */
  serverUrl: string;
  /** The REST API root (https://api.github.com, https://<ghes>/api/v3, the sandbox). */
  apiUrl: string;
}

const TokenAnswer = z.union([
  z.object({
    access_token: z.string().min(1),
    expires_in: z.number().int().positive().optional(),
  }),
  z.object({ error: z.string(), error_description: z.string().optional() }),
]);

const GitHubUser = z.object({ login: z.string().min(1), id: z.number() });

/** The token was refused (revoked, expired, or never valid): the person must sign in again. */
export class TokenRefused extends Error {
  override name = "TokenRefused";
}

export type CodeExchange =
  | { ok: true; token: string; expiresInSeconds: number | null }
  | { ok: false; message: string };

export interface GitHubUserAuth {
  authorizeUrl(redirectUri: string, state: string): string;
  exchangeCode(code: string, redirectUri: string): Promise<CodeExchange>;
  /** The token's person; TokenRefused when GitHub does not accept the token. */
  login(token: string): Promise<string>;
  /** Whether the token's person can read `owner/repo` (GitHub hides it with 404 otherwise). */
  canRead(token: string, repo: string): Promise<boolean>;
}

export function githubUserAuth(config: GitHubUserAuthConfig): GitHubUserAuth {
  const api = config.apiUrl.replace(/\/+$/, "");
  const web = config.serverUrl.replace(/\/+$/, "");
  const asUser = (token: string) => ({
    accept: "application/vnd.github+json",
    authorization: `Bearer ${token}`,
    "x-github-api-version": "2022-11-28",
    "user-agent": "loopx-dashboard",
  });

  return {
    authorizeUrl(redirectUri, state) {
      const q = new URLSearchParams({
        client_id: config.clientId,
        redirect_uri: redirectUri,
        state,
        allow_signup: "false",
      });
      return `${web}/login/oauth/authorize?${q.toString()}`;
    },

    async exchangeCode(code, redirectUri) {
      const res = await fetch(`${web}/login/oauth/access_token`, {
        method: "POST",
        headers: { accept: "application/json", "content-type": "application/json" },
        body: JSON.stringify({
          client_id: config.clientId,
          client_secret: config.clientSecret,
          code,
          redirect_uri: redirectUri,
        }),
      });
      if (!res.ok) {
        return { ok: false, message: `GitHub answered ${res.status} to the code exchange.` };
      }
      const answer = TokenAnswer.safeParse(await res.json());
      if (!answer.success)
        return { ok: false, message: "GitHub's answer to the code exchange had no token." };
      if ("error" in answer.data) {
        const why = answer.data.error_description ?? answer.data.error;
        const hint =
          answer.data.error === "incorrect_client_credentials"
            ? " The operator must check GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET."
            : "";
        return { ok: false, message: `GitHub refused the sign-in: ${why}.${hint}` };
      }
      return {
        ok: true,
        token: answer.data.access_token,
        expiresInSeconds: answer.data.expires_in ?? null,
      };
    },

    async login(token) {
      const res = await fetch(`${api}/user`, { headers: asUser(token) });
      if (res.status === 401) throw new TokenRefused("GitHub no longer accepts this sign-in");
      if (!res.ok) throw new Error(`GitHub answered ${res.status} to GET /user`);
      return GitHubUser.parse(await res.json()).login;
    },

    async canRead(token, repo) {
      const [owner = "", name = ""] = repo.split("/");
      const path = `${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
      const res = await fetch(`${api}/repos/${path}`, { headers: asUser(token) });
      await res.body?.cancel();
      if (res.status === 401) throw new TokenRefused("GitHub no longer accepts this sign-in");
      if (res.ok) return true;
      if (res.status === 404 || res.status === 403) return false;
      throw new Error(`GitHub answered ${res.status} to GET /repos/${repo}`);
    },
  };
}
