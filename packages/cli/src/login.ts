/**
 * `loopx login`: signs the CLI in to a readonly dashboard with GitHub's device flow. The app
 * says which GitHub App to authorize (GET /loopx/api/auth); the person opens GitHub, types
 * the code shown, and the user token GitHub issues is saved for that app (credentials.ts).
 * The app accepts it as `Authorization: Bearer` and shows only what the person can read.
 */
import { z } from "zod";
import { authHeaders, CliError, EXIT } from "./api-client.ts";
import { forgetToken, saveToken } from "./credentials.ts";

type Env = Readonly<Record<string, string | undefined>>;

const AuthInfo = z.object({
  signIn: z.literal("github"),
  clientId: z.string().min(1),
  githubUrl: z.url(),
  login: z.string().nullable(),
});

const DeviceCode = z.object({
  device_code: z.string().min(1),
  user_code: z.string().min(1),
  verification_uri: z.string(),
  expires_in: z.number(),
  interval: z.number(),
});

const TokenPoll = z.union([
  z.object({ access_token: z.string().min(1) }),
  z.object({
    error: z.string(),
    error_description: z.string().optional(),
    interval: z.number().optional(),
  }),
]);

const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

async function call(url: string, init: RequestInit, what: string): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const why = error instanceof Error ? (error.cause ?? error.message) : String(error);
    throw new CliError(
      `cannot reach ${new URL(url).origin} (${String(why)}) ${what}`,
      EXIT.unreachable,
    );
  }
}

async function authInfo(base: string, token: string | null) {
  const headers = {
    accept: "application/json",
    ...authHeaders(base, token ? { token, from: "login" } : null),
  };
  const res = await call(
    `${base}/loopx/api/auth`,
    { headers },
    "to ask how to sign in: is the app running? Pass --url or set LOOPX_URL.",
  );
  if (res.status === 404 || res.status === 401) {
    throw new CliError(
      `the app at ${base} has no GitHub sign-in (its dashboard is off, the loopback demo, or readonly without GITHUB_CLIENT_ID): \`loopx status\` needs no login there.`,
      EXIT.usage,
    );
  }
  const info = AuthInfo.safeParse(await res.json().catch(() => null));
  if (!res.ok || !info.success) {
    throw new CliError(
      `the app at ${base} answered ${res.status} to /loopx/api/auth; see its log.`,
      EXIT.unreachable,
    );
  }
  return info.data;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function login(
  args: { url: string; env: Env },
  print: (line: string) => void,
): Promise<number> {
  const base = args.url.replace(/\/+$/, "");
  const info = await authInfo(base, null);
  const form = { accept: "application/json", "content-type": "application/json" };
  const started = await call(
    `${info.githubUrl}/login/device/code`,
    { method: "POST", headers: form, body: JSON.stringify({ client_id: info.clientId }) },
    "(GitHub) to start the device flow",
  );
  const device = DeviceCode.safeParse(await started.json().catch(() => null));
  if (!device.success) {
    throw new CliError(
      `GitHub at ${info.githubUrl} did not start a device sign-in (HTTP ${started.status}): the operator must tick "Enable Device Flow" in the GitHub App's settings; or set LOOPX_TOKEN to a GitHub user token.`,
      EXIT.signIn,
    );
  }
  const d = device.data;
  print(
    `Open ${d.verification_uri} and enter the code ${d.user_code} (valid ${Math.round(d.expires_in / 60)} min).`,
  );
  let interval = d.interval;
  const deadline = Date.now() + d.expires_in * 1000;
  while (Date.now() < deadline) {
    await sleep(Math.max(interval, 1) * 1000);
    const polled = await call(
      `${info.githubUrl}/login/oauth/access_token`,
      {
        method: "POST",
        headers: form,
        body: JSON.stringify({
          client_id: info.clientId,
          device_code: d.device_code,
          grant_type: DEVICE_GRANT,
        }),
      },
      "(GitHub) while waiting for the sign-in",
    );
    const answer = TokenPoll.safeParse(await polled.json().catch(() => null));
    if (!answer.success) {
      throw new CliError(
        `GitHub answered ${polled.status} in an unexpected shape while signing in; try again.`,
        EXIT.signIn,
      );
    }
    if ("access_token" in answer.data) {
      const token = answer.data.access_token;
      const me = await authInfo(base, token);
      if (!me.login) {
        throw new CliError(
          `the app at ${base} did not accept the new sign-in; try again.`,
          EXIT.signIn,
        );
      }
      const path = saveToken(args.env, base, token, me.login);
      print(`Signed in to ${base} as ${me.login}; the token is in ${path} (readable by you only).`);
      return EXIT.ok;
    }
    const { error, error_description: description } = answer.data;
    if (error === "authorization_pending") continue;
    if (error === "slow_down") {
      interval = answer.data.interval ?? interval + 5;
      continue;
    }
    const hint =
      error === "device_flow_disabled"
        ? ' The operator must tick "Enable Device Flow" in the GitHub App\'s settings.'
        : error === "access_denied"
          ? " You declined on GitHub."
          : "";
    throw new CliError(`sign-in failed: ${description ?? error}.${hint}`, EXIT.signIn);
  }
  throw new CliError(
    "sign-in timed out: the code was not entered in time; run `loopx login` again.",
    EXIT.signIn,
  );
}

export function logout(args: { url: string; env: Env }, print: (line: string) => void): number {
  const base = args.url.replace(/\/+$/, "");
  print(forgetToken(args.env, base) ? `Signed out of ${base}.` : `Not signed in to ${base}.`);
  return EXIT.ok;
}
