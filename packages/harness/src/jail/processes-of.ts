import { readdirSync, readFileSync } from "node:fs";

/**
 * Every process on the host with `uid` as any of its real, effective, saved or filesystem
 * uids. /proc/PID/status is world-readable, so this needs no privilege; a process that is
 * exiting meanwhile simply drops out.
 */
export function processesOf(uid: number): number[] {
  const found: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^[0-9]+$/.test(entry)) continue;
    let status: string;
    try {
      status = readFileSync(`/proc/${entry}/status`, "utf8");
    } catch {
      continue;
    }
    const line = /^Uid:\s+(.*)$/m.exec(status)?.[1] ?? "";
    if (line.split(/\s+/).some((u) => Number(u) === uid)) found.push(Number(entry));
  }
  return found;
}

/** Whether any process, or any entry of /etc/passwd, already uses `uid`. */
export function uidInUse(uid: number): boolean {
  if (processesOf(uid).length > 0) return true;
  try {
    const passwd = readFileSync("/etc/passwd", "utf8");
    return passwd.split("\n").some((l) => l.split(":")[2] === String(uid));
  } catch {
    return false;
  }
}
