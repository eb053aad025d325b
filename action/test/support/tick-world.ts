import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { AskResponse } from "@loopx/core";
import { createSandbox, type Sandbox } from "@loopx/sandbox";
import { importPKCS8, SignJWT } from "jose";
import { z } from "zod";
import { FakeTickApi } from "./fake-tick-api.ts";

export const TICK_ID = "7d1d7c1e-5a0e-4a55-9a43-5b0f7a2a9c11";
export const GOAL_ID = "0b3f1c2e-4d5a-4b6c-8d7e-9f0a1b2c3d4e";
export const LEASE = "lease-0123456789abcdef";
export const BRANCH = "loopx/12-T3";

/** git as a developer runs it, without the host's config. */
export const GIT_ENV = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: process.env.HOME ?? "/tmp",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_TERMINAL_PROMPT: "0",
  GIT_AUTHOR_NAME: "Dev",
  GIT_AUTHOR_EMAIL: "dev@example.invalid",
  GIT_COMMITTER_NAME: "Dev",
  GIT_COMMITTER_EMAIL: "dev@example.invalid",
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    env: GIT_ENV,
    stdio: ["ignore", "pipe", "pipe"],
  }).toString("utf8");
}

/**
 * git that talks to the sandbox: asynchronous, because the sandbox serves git from this very
 * process (a synchronous child would block the server it waits for).
 */
export async function gitAsync(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)("git", args, { cwd, env: GIT_ENV });
  return stdout;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * The sandbox (OIDC issuer, installation tokens, real git over smart HTTP) plus the tick API
 * double, wired as a job on github.com would see them.
 */
export async function startTickWorld() {
  const sandbox: Sandbox = await createSandbox();
  sandbox.createRepo("acme/widgets", { files: { "README.md": "# widgets\n" } });
  const { app, privateKey } = sandbox.createApp({ slug: "loopx" });
  if (!privateKey) throw new Error("sandbox app without a key");
  const installation = sandbox.install(app.id, "acme", ["acme/widgets"]);
  const api = await new FakeTickApi(sandbox.url).start();

  /** What the runner sets for a job granted `id-token: write`. */
  const idTokenEnv = (): Record<string, string> => {
    const c = sandbox.oidc.requestCredentials({
      repository: "acme/widgets",
      event_name: "workflow_dispatch",
    });
    return { ACTIONS_ID_TOKEN_REQUEST_URL: c.url, ACTIONS_ID_TOKEN_REQUEST_TOKEN: c.token };
  };
  const githubEnv = {
    GITHUB_REPOSITORY: "acme/widgets",
    GITHUB_SERVER_URL: sandbox.url,
    GITHUB_API_URL: sandbox.url,
  };
  /** A real installation token, as the App would mint for a push grant. */
  const installationToken = async (permissions: Record<string, string> = { contents: "write" }) => {
    const now = Math.floor(sandbox.clock.now() / 1000);
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: "RS256" })
      .setIssuer(String(app.id))
      .setIssuedAt(now - 30)
      .setExpirationTime(now + 540)
      .sign(await importPKCS8(privateKey, "RS256"));
    const res = await fetch(`${sandbox.url}/app/installations/${installation.id}/access_tokens`, {
      method: "POST",
      headers: { authorization: `Bearer ${jwt}`, "content-type": "application/json" },
      body: JSON.stringify({ repositories: ["widgets"], permissions }),
    });
    const body = z.object({ token: z.string() }).safeParse(await res.json());
    if (!body.success) throw new Error(`no installation token (HTTP ${res.status})`);
    return body.data.token;
  };
  /** A working copy as actions/checkout (fetch-depth: 0, persist-credentials: false) leaves it. */
  const checkout = async (): Promise<string> => {
    const token = await installationToken({ contents: "read" });
    const dir = join(tempDir("loopx-ws-"), "ws");
    const basic = Buffer.from(`x-access-token:${token}`).toString("base64");
    await gitAsync(
      tmpdir(),
      "-c",
      `http.extraheader=AUTHORIZATION: basic ${basic}`,
      "clone",
      "--quiet",
      sandbox.cloneUrl("acme/widgets"),
      dir,
    );
    return dir;
  };
  return {
    sandbox,
    api,
    idTokenEnv,
    githubEnv,
    installationToken,
    checkout,
    async stop() {
      await api.stop();
      await sandbox.stop();
    },
  };
}
export type TickWorld = Awaited<ReturnType<typeof startTickWorld>>;

type RunJson = z.input<(typeof AskResponse.options)[1]>;

/** A valid `run: true` answer; override what the test is about. */
export function runAnswer(overrides: Partial<RunJson> = {}): RunJson {
  return {
    run: true,
    route: "run",
    reason: "T3 is the next ready todo",
    tickId: TICK_ID,
    leaseToken: LEASE,
    leaseExpiresAt: "2030-01-01T00:00:00.000Z",
    todo: "T3",
    branch: BRANCH,
    harness: "shell",
    allowedTools: [],
    validationCommand: null,
    limits: { wallMinutes: 1, idleMinutes: 1, maxTurns: 5, usd: 1 },
    brief: {
      goalId: GOAL_ID,
      repo: "acme/widgets",
      issue: 12,
      tick: { id: TICK_ID, number: 4 },
      branch: BRANCH,
      objective: { title: "Ship widgets", body: null },
      todo: {
        key: "T3",
        title: "Add the widget list",
        detail: "",
        kind: "task",
        requiredScopes: [],
        attempts: 0,
      },
      instruction: "Work on T3.",
      deadline: null,
      money: null,
      validationCommand: null,
      notes: [],
      decisions: [],
      lastHandoff: null,
      evidence: [],
      data: [],
    },
    briefText: "# T3\nAdd the widget list.",
    ...overrides,
  };
}
