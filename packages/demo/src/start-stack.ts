/**
 * Everything the demo runs on, on loopback: the sandbox (a local GitHub whose runner runs
 * the repository's own loopx-tick.yml with the real action bundle), the demo repository, the
 * model the agent talks to, and the LoopX app — the same composition `npm start` serves —
 * on embedded PGlite or on PostgreSQL.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Logger } from "@loopx/app";
import { createLoopxApp, type LoopxApp, LoopxOctokit, listen, WEBHOOK_PATH } from "@loopx/app";
import { createClock, createSandbox, type Sandbox } from "@loopx/sandbox";
import { type ScriptedAnthropic, startScriptedAnthropic } from "@loopx/sandbox/models";
import { openStore, type Store } from "@loopx/store";
import { dbOf, sql, tables } from "@loopx/store/testing";
import { Octokit } from "@octokit/rest";
import { Probot } from "probot";
import { z } from "zod";
import { ISSUE_FIX_SLICES, modelTurns, shellAgentScript } from "./agent-script.ts";
import { demoDashboard } from "./dashboard/demo-dashboard.ts";
import type { DemoOptions } from "./demo-options.ts";
import {
  CI_COMMAND,
  DEMO_REPO,
  demoFiles,
  OWNER,
  REQUIRED_CHECK,
  REVIEWER,
} from "./demo-project.ts";
import { hostLoopxRelease } from "./loopx-release.ts";
import { PLAN_SLICES } from "./plan-script.ts";
import { writeDemoSettings } from "./settings-file.ts";
import { GITHUB_ACTION_STAND_INS } from "./stand-ins/index.ts";

const ROOT = resolve(import.meta.dirname, "../../..");
/** The scripted model accepts any key; this one only has to look like one. */
const SCRIPTED_KEY = "sk-ant-demo-scripted-0000000000";

export interface Stack {
  sandbox: Sandbox;
  app: LoopxApp;
  store: Store;
  appUrl: string;
  /** The scripted model, unless --real-model. */
  model: ScriptedAnthropic | null;
  /** A user token per person the demo plays (the owner and the reviewer). */
  tokens: { owner: string; reviewer: string };
  /** Where the running deployment's settings are (see settings-file.ts). */
  settingsFile: string;
  close(): Promise<void>;
}

export class DemoSetupError extends Error {}

async function openDemoStore(opts: DemoOptions): Promise<Store> {
  if (opts.databaseUrl) return openStore({ databaseUrl: opts.databaseUrl });
  // A fresh start keeps the initialised cluster (PGlite's initdb takes ~10 s on 2 busy cores)
  // and drops LoopX's tables and migration record instead; migrate() makes them again.
  const existed = existsSync(opts.dataDir);
  mkdirSync(opts.dataDir, { recursive: true });
  let store: Store;
  try {
    store = await openStore({ dataDir: opts.dataDir });
  } catch (error) {
    throw new DemoSetupError(
      `cannot open the demo's database at ${opts.dataDir}: ${error instanceof Error ? error.message : String(error)}. Is another demo or \`npm start\` using it? Stop it, or delete the directory to start over.`,
    );
  }
  if (opts.fresh && existed) {
    for (const statement of [
      "DROP SCHEMA IF EXISTS drizzle CASCADE",
      "DROP SCHEMA public CASCADE",
      "CREATE SCHEMA public",
    ]) {
      await dbOf(store).execute(sql.raw(statement));
    }
  }
  return store;
}

const MaxId = z.object({ max: z.coerce.number().nullable() });

/**
 * A new sandbox numbers its users, repositories, installations and issues from the same start
 * every time, while the kept database remembers earlier runs' goals by those numbers: move the
 * sandbox's counter past every id stored, so this run's repository is a new one to LoopX.
 */
async function skipStoredIds(sandbox: Sandbox, store: Store): Promise<void> {
  const g = tables.goals;
  const [goalIds] = await dbOf(store)
    .select({
      max: sql`greatest(max(${g.repoId}), max(${g.repoOwnerId}), max(${g.installationId}), max(${g.issueId}))`,
    })
    .from(g);
  const [installationIds] = await dbOf(store)
    .select({ max: sql`max(${tables.installations.id})` })
    .from(tables.installations);
  const stored = Math.max(MaxId.parse(goalIds).max ?? 0, MaxId.parse(installationIds).max ?? 0);
  while (sandbox.store.id() <= stored) {
    // each call takes the next id; only the counter's position matters
  }
}

/**
 * The repository's owner requires CI's check on main with a ruleset, through the REST API as
 * on GitHub: without a required check nothing LoopX's branches do could be green.
 */
async function requireCheck(sandbox: Sandbox): Promise<void> {
  const admin = new Octokit({
    baseUrl: sandbox.url,
    auth: sandbox.createUserToken(DEMO_REPO.owner),
    request: { retries: 0 },
  });
  await admin.rest.repos.createRepoRuleset({
    owner: DEMO_REPO.owner,
    repo: DEMO_REPO.name,
    name: "CI must pass",
    enforcement: "active",
    conditions: { ref_name: { include: ["~DEFAULT_BRANCH"], exclude: [] } },
    rules: [
      {
        type: "required_status_checks",
        parameters: {
          required_status_checks: [{ context: REQUIRED_CHECK }],
          strict_required_status_checks_policy: false,
        },
      },
    ],
  });
}

/** The version loopx-tick.yml installs; the runner finds it on PATH instead (no network). */
const CLAUDE_VERSION = /claude-code-version:[\s\S]*?default: "([^"]+)"/;

/**
 * The agent job runs `claude` from PATH (`npm run` puts node_modules/.bin there); without
 * the pinned version the workflow would try to install it from the registry.
 */
function checkClaude(workflow: string): void {
  const pinned = CLAUDE_VERSION.exec(workflow)?.[1] ?? "";
  const found = spawnSync("claude", ["--version"], { encoding: "utf8", timeout: 30_000 });
  const version = found.stdout?.trim().split(" ")[0] ?? "";
  if (found.status !== 0 || version !== pinned) {
    throw new DemoSetupError(
      `the demo's agent job needs the claude CLI ${pinned} on PATH, found ${version || "none"}: run \`npm ci\` and start the demo with \`npm run demo\` (it puts node_modules/.bin on PATH), or use --harness shell.`,
    );
  }
}

/** What the agent job gets: the scripted model by default, the real API only on request. */
function modelEnv(
  opts: DemoOptions,
  model: ScriptedAnthropic | null,
): { vars: Record<string, string>; secrets: Record<string, string> } {
  if (model) {
    return {
      vars: { ANTHROPIC_BASE_URL: model.url },
      secrets: { ANTHROPIC_API_KEY: SCRIPTED_KEY },
    };
  }
  if (opts.harness === "shell") return { vars: {}, secrets: {} };
  const key = process.env.ANTHROPIC_API_KEY ?? "";
  if (key === "") {
    throw new DemoSetupError(
      "--real-model needs ANTHROPIC_API_KEY in the environment; leave --real-model out to use the scripted local model.",
    );
  }
  return { vars: {}, secrets: { ANTHROPIC_API_KEY: key } };
}

export async function startStack(opts: DemoOptions, log: Logger): Promise<Stack> {
  const secret = "loopx-demo-webhook-secret";
  // Time passes as it does on GitHub: an approval is judged against when a head was pushed.
  const sandbox = await createSandbox({
    webhookSecret: secret,
    clock: createClock(Date.now(), { realTime: true }),
  });
  const closers: Array<() => Promise<unknown>> = [() => sandbox.stop()];
  const close = async () => {
    for (const c of closers.reverse()) await c().catch(() => {});
  };
  try {
    // Held until the goal is ready for tick 1 (see scenario.ts); then every dispatch runs.
    sandbox.runner.enabled = false;
    const files = demoFiles(opts.harness);
    if (opts.harness === "claude-code")
      checkClaude(readFileSync(resolve(ROOT, ".github/workflows/loopx-tick.yml"), "utf8"));
    const store = await openDemoStore(opts);
    closers.push(() => store.close());
    await store.migrate();
    await skipStoredIds(sandbox, store);
    sandbox.createRepo(DEMO_REPO.fullName, {
      files,
      collaborators: { [OWNER]: "maintain", [REVIEWER]: "write" },
    });
    sandbox.ci.command = { run: CI_COMMAND, timeoutMs: 60_000 };
    sandbox.ci.checks = [REQUIRED_CHECK];
    await requireCheck(sandbox);

    const script = opts.plan ? PLAN_SLICES : ISSUE_FIX_SLICES;
    const model =
      opts.harness === "claude-code" && !opts.realModel
        ? await startScriptedAnthropic({ turns: modelTurns(script) })
        : null;
    if (model) closers.push(() => model.close());

    const { app: appRecord, privateKey } = sandbox.createApp({ slug: "loopx" });
    if (!privateKey) throw new DemoSetupError("the sandbox made no private key for the app");
    const probot = new Probot({
      appId: appRecord.id,
      privateKey,
      secret,
      baseUrl: sandbox.gheUrl,
      logLevel: "warn",
      // As `npm start`: the inbox and outbox retry durably; no in-process retry queues.
      Octokit: LoopxOctokit,
    });
    const tokens = {
      owner: sandbox.createUserToken(OWNER),
      reviewer: sandbox.createUserToken(REVIEWER),
    };
    // Listening first: the App's URL is its OIDC audience.
    let handle: LoopxApp["handle"] | null = null;
    const server = await listen(async (req, res) => handle?.(req, res), opts.port, "127.0.0.1");
    closers.push(() => server.close());
    const appUrl = `http://127.0.0.1:${server.port}`;
    const app = await createLoopxApp({
      probot,
      store,
      serverUrl: sandbox.url,
      log,
      dashboard: {
        mode: "open",
        extension: demoDashboard({
          store,
          owner: { login: OWNER, token: tokens.owner, apiUrl: sandbox.url },
          webUrl: sandbox.url,
        }),
      },
      tickApi: {
        issuer: sandbox.url,
        // The App's own URL, as LOOPX_PUBLIC_URL: the action asks for its api-url by default.
        audience: appUrl,
        now: () => new Date(sandbox.clock.now()),
      },
      scheduler: { intervalMs: 1_000 },
    });
    handle = app.handle;
    closers.push(() => app.close());
    sandbox.setWebhookUrl(`${appUrl}${WEBHOOK_PATH}`);
    await app.start({
      pollIntervalMs: 500,
      reconcileIntervalMs: 60_000,
      retentionMs: 14 * 86_400_000,
    });

    const { vars, secrets } = modelEnv(opts, model);
    // LoopX itself comes from loopx/loopx@v1 as the sandbox serves it; GitHub's own actions
    // (checkout, artifacts) are stand-ins.
    hostLoopxRelease(sandbox);
    sandbox.runner.actions = { ...GITHUB_ACTION_STAND_INS };
    sandbox.runner.vars = { LOOPX_API_URL: appUrl, ...vars };
    sandbox.runner.secrets = secrets;
    if (opts.harness === "shell") {
      // The slice runs in a jail that sees nothing of the machine's /tmp (its own is empty):
      // the scripted agent travels in the command itself, as a repository variable would.
      const command = shellAgentScript(script).replaceAll("'", `'\\''`);
      sandbox.runner.vars.LOOPX_SHELL_COMMAND = `bash -c '${command}' loopx-demo-agent`;
    }
    sandbox.install(appRecord.id, DEMO_REPO.owner, [DEMO_REPO.fullName]);
    writeDemoSettings(opts.settingsFile, {
      appId: appRecord.id,
      privateKey,
      webhookSecret: secret,
      apiUrl: sandbox.gheUrl,
      database: opts.databaseUrl ? { url: opts.databaseUrl } : { dataDir: opts.dataDir },
      appUrl,
      ownerToken: tokens.owner,
    });
    return { sandbox, app, store, appUrl, model, tokens, settingsFile: opts.settingsFile, close };
  } catch (error) {
    await close();
    throw error;
  }
}
