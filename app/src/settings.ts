/**
 * The deployment's settings, read from the environment once at start-up and validated with
 * zod. Every problem is reported at once, each saying what to set — an app that starts with
 * a half-right configuration fails later, far from the cause.
 */
import { readFileSync } from "node:fs";
import type { InstallationControls } from "@loopx/store";
import { z } from "zod";
import { type DashboardSignIn, dashboardSignIn } from "./dashboard-sign-in.ts";
import { type DatabaseSetting, databaseSetting } from "./database-setting.ts";
import { githubHost } from "./github-host.ts";
import { type OperationsSettings, operationsSettings } from "./operations-settings.ts";
import { privateKeySetting } from "./private-key-setting.ts";
import { boolish, httpUrl, KillSwitch, positiveInt, SpendCeiling } from "./setting-schemas.ts";

/** Every variable LoopX reads; `''` counts as unset (as in shells and compose files). */
export const SETTING_NAMES = [
  "APP_ID",
  "PRIVATE_KEY",
  "PRIVATE_KEY_PATH",
  "WEBHOOK_SECRET",
  "DATABASE_URL",
  "LOOPX_DATA_DIR",
  "LOOPX_DEMO",
  "GITHUB_API_URL",
  "GITHUB_SERVER_URL",
  "GHE_HOST",
  "GHE_PROTOCOL",
  "LOOPX_OIDC_AUDIENCE",
  "LOOPX_OIDC_ISSUER",
  "LOOPX_TICK_WORKFLOW_REFS",
  "PORT",
  "HOST",
  "LOG_LEVEL",
  "LOOPX_KILL_SWITCH",
  "LOOPX_SPEND_CEILING_USD",
  "LOOPX_POLL_INTERVAL_MS",
  "LOOPX_RECONCILE_INTERVAL_SECONDS",
  "LOOPX_RETENTION_DAYS",
  "LOOPX_DASHBOARD",
  "GITHUB_CLIENT_ID",
  "GITHUB_CLIENT_SECRET",
  "LOOPX_SESSION_SECRET",
  "LOOPX_PUBLIC_URL",
  "WEBHOOK_PROXY_URL",
  "LOOPX_METRICS_TOKEN",
  "LOOPX_METRICS_PORT",
] as const;
export type SettingName = (typeof SETTING_NAMES)[number];

export interface Settings {
  appId: number;
  privateKey: string;
  webhookSecret: string;
  database: DatabaseSetting;
  github: {
    /** REST API root: https://api.github.com, https://<ghes>/api/v3, or the sandbox. */
    apiUrl: string;
    /** Web root for links in comments. */
    serverUrl: string;
  };
  oidc: {
    audience: string;
    issuer: string;
    /** Reusable tick workflows accepted as `job_workflow_ref` (null: the shipped default). */
    workflowRefs: string[] | null;
  };
  port: number;
  host: string;
  logLevel: "trace" | "debug" | "info" | "warn" | "error" | "fatal";
  controls: InstallationControls;
  /** How often the inbox and outbox are polled for work that fell due (retries, deferrals). */
  pollIntervalMs: number;
  /** How often failed webhook deliveries are fetched back from GitHub. */
  reconcileIntervalMs: number;
  /** How long processed deliveries and performed outbox rows are kept (see pruneRetained). */
  retentionMs: number;
  /** The web dashboard under /loopx: off, or read-only behind sign-in. */
  dashboard: "off" | "readonly";
  /** Readonly dashboard sign-in (GitHub App user authorization); null unless readonly. */
  dashboardSignIn: DashboardSignIn | null;
  /** A smee.io channel webhooks are relayed from (development); null: GitHub posts directly. */
  webhookProxyUrl: string | null;
  /** Who reads /metrics: a bearer token on the public port, and/or a local port. */
  metrics: OperationsSettings["metrics"];
}

/** Start-up refused: `problems` lists each variable to fix and how. */
export class SettingsError extends Error {
  override name = "SettingsError";
  constructor(readonly problems: string[]) {
    super(
      `LoopX cannot start; fix these settings (environment variables):\n${problems.map((p) => `  - ${p}`).join("\n")}`,
    );
  }
}

/**
 * Longer than GitHub's redelivery window (3 days on github.com, 7 on GitHub Enterprise
 * Server: docs.github.com/webhooks/testing-and-troubleshooting-webhooks/redelivering-webhooks).
 */
const MIN_RETENTION_DAYS = 8;
const DEFAULT_RETENTION_DAYS = 14;

const Raw = z.object({
  APP_ID: positiveInt(
    "APP_ID",
    "your GitHub App's numeric App ID (App settings → General)",
  ).optional(),
  PRIVATE_KEY: z.string().optional(),
  PRIVATE_KEY_PATH: z.string().optional(),
  WEBHOOK_SECRET: z.string().optional(),
  DATABASE_URL: z.string().optional(),
  LOOPX_DATA_DIR: z.string().optional(),
  LOOPX_DEMO: boolish.optional(),
  GITHUB_API_URL: httpUrl("GITHUB_API_URL").optional(),
  GITHUB_SERVER_URL: httpUrl("GITHUB_SERVER_URL").optional(),
  GHE_HOST: z
    .string()
    .regex(/^[^/\s]+$/, "GHE_HOST must be a host name (and port), without a scheme or path")
    .optional(),
  GHE_PROTOCOL: z.enum(["http", "https"], "GHE_PROTOCOL must be http or https").optional(),
  LOOPX_OIDC_AUDIENCE: z.string().min(1).optional(),
  LOOPX_OIDC_ISSUER: httpUrl("LOOPX_OIDC_ISSUER").optional(),
  LOOPX_TICK_WORKFLOW_REFS: z
    .string()
    .transform((v) =>
      v
        .split(",")
        .map((r) => r.trim())
        .filter((r) => r !== ""),
    )
    .pipe(z.array(z.string().regex(/^[^/\s]+\/[^/\s]+\/\.github\/workflows\/[^@\s]+@\S+$/)).min(1))
    .optional(),
  PORT: positiveInt("PORT", "the TCP port to listen on")
    .pipe(z.number().max(65535, "PORT must be at most 65535"))
    .optional(),
  HOST: z.string().optional(),
  LOG_LEVEL: z
    .enum(
      ["trace", "debug", "info", "warn", "error", "fatal"],
      "LOG_LEVEL must be one of trace, debug, info, warn, error, fatal",
    )
    .optional(),
  LOOPX_KILL_SWITCH: KillSwitch.optional(),
  LOOPX_SPEND_CEILING_USD: SpendCeiling.optional(),
  LOOPX_POLL_INTERVAL_MS: positiveInt(
    "LOOPX_POLL_INTERVAL_MS",
    "milliseconds between queue polls",
  ).optional(),
  LOOPX_RECONCILE_INTERVAL_SECONDS: positiveInt(
    "LOOPX_RECONCILE_INTERVAL_SECONDS",
    "seconds between webhook-delivery reconciliations",
  ).optional(),
  LOOPX_RETENTION_DAYS: positiveInt(
    "LOOPX_RETENTION_DAYS",
    "days processed webhook deliveries and performed GitHub writes are kept",
  )
    .pipe(
      z
        .number()
        .min(
          MIN_RETENTION_DAYS,
          `LOOPX_RETENTION_DAYS must be at least ${MIN_RETENTION_DAYS}: a processed delivery is what stops a redelivery of it running again, and GitHub redelivers deliveries up to 3 days old (7 on GitHub Enterprise Server); the default is ${DEFAULT_RETENTION_DAYS}`,
        ),
    )
    .optional(),
  LOOPX_DASHBOARD: z
    .enum(
      ["off", "readonly"],
      "LOOPX_DASHBOARD must be off or readonly (needs sign-in); the no-sign-in dashboard with gate buttons exists only in `npm run demo`",
    )
    .optional(),
  GITHUB_CLIENT_ID: z.string().min(1).optional(),
  GITHUB_CLIENT_SECRET: z.string().min(1).optional(),
  LOOPX_SESSION_SECRET: z
    .string()
    .min(
      32,
      "LOOPX_SESSION_SECRET must be at least 32 characters: generate one with `openssl rand -base64 32`",
    )
    .optional(),
  LOOPX_PUBLIC_URL: httpUrl("LOOPX_PUBLIC_URL").optional(),
  WEBHOOK_PROXY_URL: z
    .url({
      protocol: /^https?$/,
      error:
        "WEBHOOK_PROXY_URL must be a smee.io channel URL, e.g. https://smee.io/AbC123 (create one at https://smee.io/new)",
    })
    .optional(),
});

export interface ParseOptions {
  readFile?: (path: string) => string;
}

/** Validates the environment into Settings, or throws a SettingsError listing every problem. */
export function parseSettings(
  env: Readonly<Record<string, string | undefined>>,
  opts: ParseOptions = {},
): Settings {
  const readFile = opts.readFile ?? ((path: string) => readFileSync(path, "utf8"));
  const input: Partial<Record<SettingName, string>> = {};
  for (const name of SETTING_NAMES) {
    const value = env[name]?.trim();
    if (value) input[name] = value;
  }
  const parsed = Raw.safeParse(input);
  const problems: string[] = parsed.success
    ? []
    : parsed.error.issues.map((i) =>
        i.message.startsWith(String(i.path[0])) ? i.message : `${String(i.path[0])}: ${i.message}`,
      );
  const raw = parsed.success ? parsed.data : null;

  if (!input.APP_ID) {
    problems.push(
      "APP_ID is not set: set it to your GitHub App's numeric App ID (App settings → General → About)",
    );
  }
  const privateKey = privateKeySetting(
    { PRIVATE_KEY: input.PRIVATE_KEY, PRIVATE_KEY_PATH: input.PRIVATE_KEY_PATH },
    readFile,
    problems,
  );
  if (!input.WEBHOOK_SECRET) {
    problems.push(
      "WEBHOOK_SECRET is not set: set it to the webhook secret entered in the App's settings (General → Webhook secret); webhooks cannot be verified without it",
    );
  }

  // Tokens are minted for one deployment: by default its own public URL, which is also the
  // `api-url` its workflows call and so the action's default audience.
  if (!input.LOOPX_OIDC_AUDIENCE && !input.LOOPX_PUBLIC_URL) {
    problems.push(
      "LOOPX_PUBLIC_URL is not set: set it to this App's https URL (the `api-url` your workflows call, e.g. https://loopx.example.com); it is the OIDC audience the tick API accepts (or set LOOPX_OIDC_AUDIENCE to the audience your workflows request)",
    );
  }

  const demo = raw?.LOOPX_DEMO ?? false;
  const database = databaseSetting(
    { DATABASE_URL: input.DATABASE_URL, LOOPX_DATA_DIR: input.LOOPX_DATA_DIR },
    demo,
    problems,
  );

  if (input.GITHUB_API_URL && input.GHE_HOST) {
    problems.push(
      "GITHUB_API_URL and GHE_HOST are both set: keep one (GITHUB_API_URL=https://<host>/api/v3 is enough for GHES)",
    );
  }

  // From the raw input, so its problems are listed even when another setting failed to parse.
  const signIn = dashboardSignIn(
    input.LOOPX_DASHBOARD === "readonly",
    {
      GITHUB_CLIENT_ID: input.GITHUB_CLIENT_ID,
      GITHUB_CLIENT_SECRET: input.GITHUB_CLIENT_SECRET,
      LOOPX_SESSION_SECRET: input.LOOPX_SESSION_SECRET,
      LOOPX_PUBLIC_URL: input.LOOPX_PUBLIC_URL,
    },
    problems,
  );

  const operations = operationsSettings(
    {
      HOST: input.HOST,
      LOOPX_METRICS_TOKEN: input.LOOPX_METRICS_TOKEN,
      LOOPX_METRICS_PORT: input.LOOPX_METRICS_PORT,
    },
    problems,
  );

  if (problems.length > 0 || !raw || !database) throw new SettingsError(problems);

  const { apiUrl, serverUrl, oidcIssuer } = githubHost(raw);
  const ceiling = raw.LOOPX_SPEND_CEILING_USD ?? { fallback: null, byInstallation: {} };

  return {
    appId: raw.APP_ID ?? 0,
    privateKey,
    webhookSecret: input.WEBHOOK_SECRET ?? "",
    database,
    github: { apiUrl, serverUrl },
    oidc: {
      audience: raw.LOOPX_OIDC_AUDIENCE ?? (raw.LOOPX_PUBLIC_URL ?? "").replace(/\/+$/, ""),
      issuer: raw.LOOPX_OIDC_ISSUER ?? oidcIssuer,
      workflowRefs: raw.LOOPX_TICK_WORKFLOW_REFS ?? null,
    },
    port: raw.PORT ?? 3000,
    host: operations.host,
    logLevel: raw.LOG_LEVEL ?? "info",
    controls: {
      killed: raw.LOOPX_KILL_SWITCH ?? [],
      spendCeilingUsd: ceiling.fallback,
      spendCeilingUsdByInstallation: ceiling.byInstallation,
    },
    pollIntervalMs: raw.LOOPX_POLL_INTERVAL_MS ?? 5_000,
    reconcileIntervalMs: (raw.LOOPX_RECONCILE_INTERVAL_SECONDS ?? 300) * 1000,
    retentionMs: (raw.LOOPX_RETENTION_DAYS ?? DEFAULT_RETENTION_DAYS) * 86_400_000,
    dashboard: raw.LOOPX_DASHBOARD ?? "off",
    dashboardSignIn: signIn,
    webhookProxyUrl: raw.WEBHOOK_PROXY_URL ?? null,
    metrics: operations.metrics,
  };
}
