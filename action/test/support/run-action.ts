import { spawn } from "node:child_process";
import { chownSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const ACTION_ENTRY = resolve(import.meta.dirname, "../../dist/index.js");
/** The runtime the bundle runs on: the test's node, or another (e.g. node 24, as action.yml says). */
const NODE = process.env.LOOPX_ACTION_NODE || process.execPath;

export interface ActionRun {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  /** `::error::` lines, decoded. */
  errors: string[];
}

/**
 * Runs the committed bundle as the runner does: `node action/dist/index.js` with INPUT_* and
 * GITHUB_* variables and fresh GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files, read back after.
 */
export async function runAction(
  inputs: Record<string, string>,
  env: Record<string, string> = {},
  /** The step's RUNNER_TEMP, where the file commands live (default: a fresh directory). */
  dir: string = mkdtempSync(join(tmpdir(), "loopx-action-run-")),
  /** Runs the step as this uid (e.g. a user without sudo) instead of the test's own. */
  asUid?: number,
): Promise<ActionRun> {
  const files = {
    GITHUB_OUTPUT: join(dir, "output"),
    GITHUB_STEP_SUMMARY: join(dir, "summary"),
    GITHUB_ENV: join(dir, "env"),
  };
  for (const f of Object.values(files)) writeFileSync(f, "");
  const inputEnv = Object.fromEntries(
    Object.entries(inputs).map(([k, v]) => [`INPUT_${k.replace(/ /g, "_").toUpperCase()}`, v]),
  );
  const [command, ...args] =
    asUid === undefined
      ? [NODE, ACTION_ENTRY]
      : [
          "setpriv",
          `--reuid=${asUid}`,
          `--regid=${asUid}`,
          "--clear-groups",
          "--",
          NODE,
          ACTION_ENTRY,
        ];
  if (asUid !== undefined) chownSync(dir, asUid, asUid);
  for (const f of Object.values(files)) if (asUid !== undefined) chownSync(f, asUid, asUid);
  const child = spawn(command ?? NODE, args, {
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? dir,
      RUNNER_TEMP: dir,
      GITHUB_REPOSITORY: "acme/widgets",
      LOOPX_RETRY_BASE_MS: "10",
      ...files,
      ...inputEnv,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => {
    stdout += c.toString("utf8");
  });
  child.stderr.on("data", (c: Buffer) => {
    stderr += c.toString("utf8");
  });
  const code = await new Promise<number | null>((done) => child.on("close", done));
  const errors = stdout
    .split("\n")
    .filter((l) => l.startsWith("::error::"))
    .map((l) => decodeURIComponent(l.slice("::error::".length).replace(/%0A/g, "\n")));
  return {
    code,
    stdout,
    stderr,
    outputs: parseOutputFile(readFileSync(files.GITHUB_OUTPUT, "utf8")),
    summary: readFileSync(files.GITHUB_STEP_SUMMARY, "utf8"),
    errors,
  };
}

/** The runner's GITHUB_OUTPUT format: `name<<DELIM\nvalue\nDELIM` blocks. */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<=]+)<<(.+)$/.exec(lines[i] ?? "");
    if (!m?.[1] || !m[2]) continue;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i] ?? "");
    out[m[1]] = value.join("\n");
  }
  return out;
}
