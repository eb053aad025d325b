/**
 * Runs a task's tests on a tree of files: the visible ones (`test/*.test.mjs`, what the
 * project's `npm test` runs) and hidden acceptance tests, copied to `.hidden/<key>.test.mjs`
 * in a throwaway checkout. One `node --test` process serves every file of a run; a reporter
 * attributes each result to its file, so one slow or broken test file cannot blame another.
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { z } from "zod";
import type { Tree } from "./read-tree.ts";

/**
 * The `test` script of every task's package.json. A glob, not `node --test test/`: since
 * Node 21 a directory argument is taken as a module and fails with MODULE_NOT_FOUND.
 */
export const VISIBLE_TEST_SCRIPT = "node --test test/*.test.mjs";
const VISIBLE = /^test\/[^/]+\.test\.mjs$/;
const HIDDEN_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const MARK = "LOOPX-BENCH-RESULT ";
/** Where a GitHub-hosted runner checks a repository out, the same on every run. */
const WORKSPACE = "/home/runner/work/project/project";

export interface CheckRun {
  /** Every visible test file passed (and there was at least one). */
  visible: boolean;
  /** Per hidden key: its file passed. */
  hidden: Record<string, boolean>;
  /** `file › test: message` for each failure, to say why when a check does not hold. */
  failures: string[];
  /** `file › test` for each todo test that failed: a reproduction awaiting its fix. */
  todoFailures: string[];
}

export interface CheckOptions {
  /** Also run the visible tests (default true). */
  visible?: boolean;
  /** Kill the run after this long; whatever has not reported counts as failed. */
  timeoutMs?: number;
}

// Runs inside `node --test` as its reporter: one marked JSON line per finished test. Skipped
// and todo tests count as passing, as they do for `npm test`'s exit code. A file that fails
// outside any test (a missing export, say) only says "test failed": its stderr says why.
const REPORTER = `export default async function* report(source) {
  const stderr = new Map();
  for await (const event of source) {
    const d = event.data;
    if (event.type === "test:stderr") {
      stderr.set(d.file, ((stderr.get(d.file) ?? "") + d.message).slice(-2000));
      continue;
    }
    if (event.type !== "test:pass" && event.type !== "test:fail") continue;
    const excused = d.skip !== undefined || d.todo !== undefined;
    const err = d.details && d.details.error;
    let message = err ? String((err.cause && err.cause.message) || err.message) : "";
    if (err && d.name === d.file) message += " " + (stderr.get(d.file) ?? "").trim().split("\\n").slice(0, 6).join(" | ");
    const failed = event.type === "test:fail";
    const line = { file: d.file ?? "", name: d.name, ok: excused || !failed, excusedFailure: excused && failed, message: message.slice(0, 600) };
    yield ${JSON.stringify(MARK)} + JSON.stringify(line) + "\\n";
  }
}
`;

const Result = z.object({
  file: z.string(),
  name: z.string(),
  ok: z.boolean(),
  excusedFailure: z.boolean(),
  message: z.string(),
});

/** Runs the visible tests and each hidden key's test on `files`, in one process. */
export async function runChecks(
  files: Tree,
  hiddenKeys: string[],
  hidden: (key: string) => string,
  options: CheckOptions = {},
): Promise<CheckRun> {
  const withVisible = options.visible ?? true;
  for (const key of hiddenKeys) {
    if (!HIDDEN_KEY.test(key)) throw new Error(`hidden test key "${key}" is not a safe file name`);
  }
  for (const path of files.keys()) {
    if (path.startsWith(".hidden/")) {
      throw new Error(`${path}: the tree may not hold .hidden/, where hidden tests are copied`);
    }
  }
  const root = await realpath(await mkdtemp(join(tmpdir(), "loopx-bench-loop-")));
  try {
    const checkout = join(root, "checkout");
    const reporter = join(root, "reporter.mjs");
    await writeFile(reporter, REPORTER);
    for (const [path, text] of files) await writeFileDeep(join(checkout, path), text);
    for (const key of hiddenKeys) {
      await writeFileDeep(join(checkout, ".hidden", `${key}.test.mjs`), hidden(key));
    }
    const visibleFiles = withVisible ? [...files.keys()].filter((p) => VISIBLE.test(p)) : [];
    const hiddenFiles = hiddenKeys.map((k) => `.hidden/${k}.test.mjs`);
    const targets = [...visibleFiles, ...hiddenFiles];
    // With no file named, node --test would hunt the whole checkout for tests.
    if (targets.length === 0) {
      return { visible: false, hidden: {}, failures: ["no test file"], todoFailures: [] };
    }
    const { stdout, stderr, timedOut } = await runNodeTest(
      checkout,
      reporter,
      targets,
      options.timeoutMs ?? 60_000,
    );

    // Where this run's throwaway checkout lives is chance (mkdtemp); a job's log on GitHub names
    // the same workspace every run, and the agent reads these lines, so they must not vary.
    const stable = (text: string) =>
      text
        .replaceAll(pathToFileURL(checkout).href, `file://${WORKSPACE}`)
        .replaceAll(checkout, WORKSPACE);
    const passed = new Map<string, boolean>();
    const failures: string[] = [];
    const todoFailures: string[] = [];
    for (const line of stdout.split("\n")) {
      if (!line.startsWith(MARK)) continue;
      const r = Result.parse(JSON.parse(line.slice(MARK.length)));
      const file = toRelative(checkout, r.file);
      const isFileItself = r.name === file || r.name === r.file;
      if (r.excusedFailure) todoFailures.push(`${file} › ${r.name}`);
      if (!r.ok) {
        passed.set(file, false);
        failures.push(stable(`${file} › ${r.name}: ${r.message}`));
      } else if (!isFileItself && passed.get(file) !== false) {
        passed.set(file, true);
      }
    }
    if (timedOut) failures.push(`node --test was killed after ${options.timeoutMs ?? 60_000} ms`);
    for (const t of targets) {
      if (!passed.has(t)) failures.push(stable(`${t}: reported no passing test (${tail(stderr)})`));
    }
    return {
      visible: withVisible && visibleFiles.length > 0 && visibleFiles.every((f) => passed.get(f)),
      hidden: Object.fromEntries(
        hiddenKeys.map((k) => [k, passed.get(`.hidden/${k}.test.mjs`) === true]),
      ),
      failures,
      todoFailures,
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** Which hidden tests pass on `files`: key → passed. */
export async function runHidden(
  files: Tree,
  todoKeys: string[],
  hidden: (key: string) => string,
): Promise<Record<string, boolean>> {
  return (await runChecks(files, todoKeys, hidden, { visible: false })).hidden;
}

/** Whether the project's own tests (`npm test`) pass on `files`. */
export async function runVisible(files: Tree): Promise<boolean> {
  return (await runChecks(files, [], () => "")).visible;
}

async function writeFileDeep(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

function toRelative(checkout: string, file: string): string {
  const abs = file.startsWith("file://") ? fileURLToPath(file) : file;
  return relative(checkout, abs).split(sep).join("/");
}

function tail(text: string): string {
  const t = text.trim();
  return t === "" ? "no stderr" : `stderr: ${t.slice(-300)}`;
}

function runNodeTest(
  cwd: string,
  reporter: string,
  targets: string[],
  timeoutMs: number,
): Promise<{ stdout: string; stderr: string; timedOut: boolean }> {
  // The parent's NODE_OPTIONS (a test runner's loaders, say) must not leak into the project.
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  delete env.NODE_TEST_CONTEXT;
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      ["--test", `--test-reporter=${reporter}`, ...targets],
      // Its own process group, so a timeout also ends the per-file children it spawned.
      { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true },
    );
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    }, timeoutMs);
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", () => {
      clearTimeout(timer);
      resolvePromise({ stdout, stderr, timedOut });
    });
  });
}
