/** Runs the `loopx` CLI as a child process, as a person would (through tsx, like the bin). */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

const ENTRY = fileURLToPath(new URL("../../packages/cli/src/loopx.ts", import.meta.url));

/** A tick workflow as docs/workflows.md shows it: what `loopx doctor` calls sound. */
export const GOOD_TICK = `name: loopx tick
on:
  workflow_dispatch:
    inputs:
      goal: { required: true }
jobs:
  tick:
    uses: loopx/loopx/.github/workflows/loopx-tick.yml@v1
    permissions: { contents: read, id-token: write }
    with: { goal: "\${{ inputs.goal }}" }
`;

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runLoopx(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", ENTRY, ...args],
      {
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
        timeout: 30_000,
      },
      (error, stdout, stderr) => {
        const code = error && typeof error.code === "number" ? error.code : error ? 1 : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
