import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";

const RunnerEnvSchema = z.object({
  GITHUB_REPOSITORY: z.string().regex(/^[^/]+\/[^/]+$/, "owner/name"),
  GITHUB_SERVER_URL: z.url().default("https://github.com"),
  GITHUB_API_URL: z.url().default("https://api.github.com"),
  GITHUB_WORKSPACE: z.string().min(1).optional(),
  GITHUB_RUN_ID: z.string().optional(),
  RUNNER_TEMP: z.string().min(1).optional(),
  /** Test knob: the first retry delay of tick API calls (doubles each time). */
  LOOPX_RETRY_BASE_MS: z.coerce.number().int().nonnegative().default(1000),
  /**
   * Test knob: how long a minute of the slice's limits lasts. It can only shorten a minute,
   * never stretch one past the App's limits.
   */
  LOOPX_MINUTE_MS: z.coerce.number().int().positive().max(60_000).default(60_000),
});

/** What the runner tells a step about where it runs; read once, validated. */
export interface RunnerEnv {
  repository: string;
  serverUrl: string;
  apiUrl: string;
  workspace: string;
  runId: string | null;
  /** Default home of the phases' files when `tick-dir` is not given. */
  defaultTickDir: string;
  retryBaseMs: number;
  /** Milliseconds per minute of the slice's wall and idle limits (60 000 outside tests). */
  minuteMs: number;
}

export function getRunnerEnv(env: NodeJS.ProcessEnv = process.env): RunnerEnv {
  const parsed = RunnerEnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new Error(
      `The LoopX action must run in a GitHub Actions job (its GITHUB_* variables are missing or invalid):\n${z.prettifyError(parsed.error)}`,
      { cause: parsed.error },
    );
  }
  const e = parsed.data;
  return {
    repository: e.GITHUB_REPOSITORY,
    serverUrl: e.GITHUB_SERVER_URL.replace(/\/+$/, ""),
    apiUrl: e.GITHUB_API_URL.replace(/\/+$/, ""),
    workspace: e.GITHUB_WORKSPACE ?? process.cwd(),
    runId: e.GITHUB_RUN_ID ?? null,
    defaultTickDir: join(e.RUNNER_TEMP ?? tmpdir(), "loopx-tick"),
    retryBaseMs: e.LOOPX_RETRY_BASE_MS,
    minuteMs: e.LOOPX_MINUTE_MS,
  };
}
