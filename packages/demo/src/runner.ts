/**
 * `npm run demo` in a terminal: parses the options, sends the App's own log to a file under
 * .loopx/ (the terminal shows the demo's progress), asks the person when there is a terminal,
 * and turns every failure into a clear message and a non-zero exit code.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import { parseDemoArgs, USAGE, UsageError } from "./demo-options.ts";
import { runDemo } from "./main.ts";
import { DemoSetupError } from "./start-stack.ts";
import { Interrupted, StepTimeout } from "./wait-until.ts";

/** Each step of `--yes` has this long; the whole run takes well under 3 minutes. */
const UNATTENDED_STEP_MS = 90_000;

function fileLogger(path: string) {
  mkdirSync(resolve(path, ".."), { recursive: true });
  writeFileSync(path, "");
  const write = (level: string) => (message: string) =>
    appendFileSync(path, `${new Date().toISOString()} ${level} ${message}\n`);
  return { info: write("info"), warn: write("warn"), error: write("error") };
}

function terminalConfirm(stop: AbortSignal) {
  if (!process.stdin.isTTY) return null;
  return async (question: string, signal?: AbortSignal): Promise<boolean> => {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    // Ctrl-C at a prompt stops the demo as it does anywhere else.
    rl.on("SIGINT", () => process.kill(process.pid, "SIGINT"));
    try {
      const answer = await rl.question(question, {
        signal: signal ? AbortSignal.any([signal, stop]) : stop,
      });
      return !/^n/i.test(answer.trim());
    } catch {
      return false;
    } finally {
      rl.close();
    }
  };
}

export async function runner(args: string[]): Promise<number> {
  let opts: ReturnType<typeof parseDemoArgs>;
  try {
    opts = parseDemoArgs(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    if (error.message) console.error(error.message);
    console.error(USAGE);
    return error.message ? 2 : 0;
  }
  // Ctrl-C: stop at the next poll and shut the stack down (the PGlite files stay consistent);
  // a second Ctrl-C exits at once.
  const stop = new AbortController();
  process.once("SIGINT", () => {
    console.error("\nStopping the demo (Ctrl-C again to quit at once)…");
    stop.abort();
    process.once("SIGINT", () => process.exit(130));
  });
  const confirm = terminalConfirm(stop.signal);
  if (!opts.yes && !confirm) {
    console.error(
      "No terminal to ask you for the approval and the merge: run `npm run demo -- --yes` to let the demo act as the owner.",
    );
    return 2;
  }
  const logPath = resolve(".loopx", "demo.log");
  const workDir = mkdtempSync(join(tmpdir(), "loopx-demo-"));
  console.log(`(the App's own log: ${logPath})`);
  try {
    await runDemo(
      { ...opts, stepTimeoutMs: opts.yes ? UNATTENDED_STEP_MS : opts.stepTimeoutMs },
      {
        print: (line) => console.log(line),
        log: fileLogger(logPath),
        workDir,
        confirm,
        signal: stop.signal,
        beforeStop: async () => {
          if (opts.yes || !confirm) return;
          await confirm("\nThe sandbox and the dashboard stay up until you press Enter. ");
        },
      },
    );
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof Interrupted || stop.signal.aborted) {
      console.error("The demo was stopped; run it again to start over (--fresh to drop its data).");
      return 130;
    }
    if (error instanceof StepTimeout) {
      console.error(`\nThe demo stopped: ${message}\n(the App's log: ${logPath})`);
    } else if (error instanceof DemoSetupError) {
      console.error(`\nThe demo could not start: ${message}`);
    } else {
      console.error(
        `\nThe demo failed: ${error instanceof Error ? (error.stack ?? message) : message}`,
      );
    }
    return 1;
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}
