import { readdirSync, readFileSync } from "node:fs";

/**
 * Sends a signal to every process whose environment carries `name=value`. Harnesses start
 * tools in sessions of their own (Claude Code's Bash tool does), and a backgrounded job
 * outlives its shell, so killing the process group is not enough; the marker survives both
 * because children inherit the environment. Linux only (/proc); elsewhere it finds nothing.
 * A process that scrubs its environment escapes this sweep (and only this one).
 */
export function killMarked(name: string, value: string, signal: NodeJS.Signals): number[] {
  const needle = Buffer.from(`${name}=${value}\0`);
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const killed: number[] = [];
  for (const entry of entries) {
    if (!/^[0-9]+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    let environ: Buffer;
    try {
      environ = readFileSync(`/proc/${entry}/environ`);
    } catch {
      continue; // gone, or not ours to read
    }
    if (
      !(
        environ.indexOf(needle) === 0 || environ.includes(Buffer.concat([Buffer.from([0]), needle]))
      )
    ) {
      continue;
    }
    try {
      process.kill(pid, signal);
      killed.push(pid);
    } catch {
      // Exited meanwhile.
    }
  }
  return killed;
}
