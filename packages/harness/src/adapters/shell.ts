import type { AgentVerdict, HarnessAdapter, OutputMeter } from "../slice-types.ts";

export interface ShellConfig {
  /** Run with `sh -c`; reads $LOOPX_BRIEF / $LOOPX_BRIEF_MD, writes $LOOPX_RESULT. */
  command: string;
}

/**
 * Any command as a harness. It reports no usage, so only the wall, idle and validation
 * bounds apply (turns and USD stay at zero); cost is the runner time.
 */
export function shellAdapter(config: ShellConfig): HarnessAdapter {
  if (config.command.trim() === "") {
    throw new Error(
      "shell harness: set a command to run (it reads $LOOPX_BRIEF, writes $LOOPX_RESULT)",
    );
  }
  return {
    name: "shell",
    launch: () => ({ command: "sh", args: ["-c", config.command], env: {} }),
    meter: () => exitCodeMeter(config.command),
  };
}

function exitCodeMeter(command: string): OutputMeter {
  return {
    onLine: () => {},
    reading: () => ({ usd: 0, tokens: 0, turns: 0, sessionId: null }),
    verdict: ({ code, signal }): AgentVerdict =>
      code === 0
        ? { kind: "ok", message: "exit 0" }
        : {
            kind: "error",
            message: `\`${command.slice(0, 200)}\` ${code === null ? `was killed by ${signal ?? "a signal"}` : `exited with code ${code}`}`,
          },
  };
}
