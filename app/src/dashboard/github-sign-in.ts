/** The readonly dashboard's sign-in as a deployment configures it (settings → SignIn). */
import type { EndedSessions } from "@loopx/store";
import type { DashboardSignIn } from "../dashboard-sign-in.ts";
import { githubUserAuth } from "./github-user-auth.ts";
import { cookieSealer } from "./session-cookie.ts";
import { createSignIn, type SignIn } from "./sign-in.ts";

export function githubSignIn(
  config: DashboardSignIn,
  github: { apiUrl: string; serverUrl: string },
  sessions: EndedSessions,
  extra: { cacheMs?: number } = {},
): SignIn {
  return createSignIn({
    github: githubUserAuth({
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      serverUrl: github.serverUrl,
      apiUrl: github.apiUrl,
    }),
    sealer: cookieSealer(config.sessionSecret),
    clientId: config.clientId,
    serverUrl: github.serverUrl,
    publicUrl: config.publicUrl,
    sessions,
    ...extra,
  });
}
