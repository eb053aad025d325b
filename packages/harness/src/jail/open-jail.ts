import { type ChildProcess, spawn } from "node:child_process";
import { randomInt } from "node:crypto";
import { existsSync, realpathSync } from "node:fs";
import { isAbsolute, relative } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { JAIL_INIT, jailArgs, READY } from "./jail-script.ts";
import {
  asRoot,
  checkJailSupport,
  JailError,
  mustAsRoot,
  rootPrefix,
  SECURE_PATH,
} from "./privilege.ts";
import { processesOf, uidInUse } from "./processes-of.ts";

/** A process started by a Spawner, and how to stop it and everything it started. */
export interface Spawned {
  /** For its exit and errors; read its output from `stdout` and `stderr`. */
  child: ChildProcess;
  stdout: Readable;
  stderr: Readable;
  /** Asks every process of the run to stop (SIGTERM). */
  terminate(): void;
  /** Ends every process of the run now. */
  kill(): void;
}

export type Spawner = (
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string> },
) => Spawned;

export interface JailOptions {
  /** Directories the command may write, at their own paths; owned by the jail's uid meanwhile. */
  writable: string[];
  /** Paths the jail must not see: an empty directory (or file) stands where each was. */
  hidden: string[];
  /** The jail's HOME, inside one of `writable`. */
  home: string;
}

export interface Jail {
  readonly uid: number;
  /** Starts the jail's ONE command (a jail is one run: validation gets a fresh one). */
  readonly spawner: Spawner;
  /**
   * After the command ended: checks that no process of the jail's uid is left anywhere
   * (killing any it finds) and hands the writable directories back to the action's user.
   * Throws a JailError when the jail was never built or a process outlived it.
   */
  close(): Promise<void>;
}

/** Private scratch space in every jail: nothing of the host's temporary files is visible. */
const SCRATCH = ["/tmp", "/var/tmp", "/dev/shm"];
/** Jail uids come from a range no distribution hands out. */
const UID_RANGE = [1_000_000_000, 2_000_000_000] as const;
const STDERR_KEEP = 4096;

/**
 * Builds a jail for one command: its own uid (no passwd entry on the host, no sudoers entry,
 * no groups), PID + mount + IPC + UTS namespaces created as root, everything read-only but
 * `writable`, `hidden` paths emptied. Fails with a JailError when this runner cannot do it.
 */
export async function openJail(options: JailOptions): Promise<Jail> {
  await checkJailSupport();
  const writable = options.writable.map((p) => realpathSync(p));
  const hidden = options.hidden.filter((p) => existsSync(p)).map((p) => realpathSync(p));
  for (const h of hidden) {
    const inside = writable.find((w) => within(h, w));
    if (inside) {
      throw new JailError(
        "unavailable",
        `${h} must be hidden from the agent but lies inside ${inside}, which it may write: keep RUNNER_TEMP and the runner's files out of the work tree`,
      );
    }
  }
  const uid = pickUid();
  await mustAsRoot(
    ["chown", "-R", "-h", `${uid}:${uid}`, ...writable],
    "handing the work tree to the jail",
  );
  let spawned: Spawned | null = null;
  let stderr = "";
  let ready = false;
  const spawner: Spawner = (command, args, run) => {
    if (spawned) throw new Error("a jail runs one command; open another jail for the next");
    const plan = {
      uid,
      home: options.home,
      writable,
      scratch: SCRATCH,
      hidden,
      cwd: run.cwd,
      env: { ...run.env, HOME: options.home, USER: "loopx", LOGNAME: "loopx", TMPDIR: "/tmp" },
      command,
      args,
    };
    const [bin, ...prefix] = [
      ...rootPrefix(),
      "unshare",
      "--pid",
      "--mount",
      "--ipc",
      "--uts",
      "--fork",
      "--mount-proc",
      "--kill-child=SIGKILL",
      "--",
      "bash",
      "--noprofile",
      "--norc",
      "-c",
      JAIL_INIT,
      "loopx-jail",
    ];
    const child = spawn(bin ?? "unshare", [...prefix, ...jailArgs(plan)], {
      env: { PATH: SECURE_PATH, LANG: "C.UTF-8" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    child.stdin?.on("error", () => {
      // EPIPE: init is gone already, which is what closing the lifeline asks for.
    });
    // Until init says it is ready, its stderr is the jail's (kept for the error); after, the
    // command's. The ready line itself is not the command's output.
    const errors = new PassThrough();
    child.stderr?.on("data", (chunk: Buffer) => {
      if (ready) {
        errors.write(chunk);
        return;
      }
      if (stderr.length < STDERR_KEEP) stderr += chunk.toString("utf8");
      const match = READY.exec(stderr);
      if (!match) return;
      ready = true;
      const rest = stderr.slice(match.index + match[0].length).replace(/^\n/, "");
      if (rest) errors.write(rest);
    });
    child.stderr?.on("end", () => {
      if (!ready && stderr) errors.write(stderr);
      errors.end();
    });
    spawned = {
      child,
      stdout: child.stdout ?? Readable.from([]),
      stderr: errors,
      terminate: () => {
        if (child.stdin?.writable) child.stdin.write("TERM\n");
      },
      kill: () => {
        child.stdin?.end();
      },
    };
    return spawned;
  };
  return {
    uid,
    spawner,
    async close() {
      const child = spawned?.child;
      if (child && child.exitCode === null && child.signalCode === null) {
        spawned?.kill();
        await new Promise((done) => child.once("exit", done));
      }
      const survivors = processesOf(uid);
      if (survivors.length > 0) await asRoot(["kill", "-KILL", ...survivors.map(String)]);
      const me = `${process.getuid?.() ?? 0}:${process.getgid?.() ?? 0}`;
      await mustAsRoot(["chown", "-R", "-h", me, ...writable], "taking the work tree back");
      await mustAsRoot(["chmod", "-R", "u+rwX", ...writable], "taking the work tree back");
      if (survivors.length > 0) {
        throw new JailError(
          "breach",
          `process ${survivors.join(", ")} of the jail's uid ${uid} outlived the jail's init and was killed; the slice's work is not trusted`,
        );
      }
      if (spawned && !ready) {
        const why = stderr.split("\n").find((l) => l.startsWith("loopx-jail:")) ?? stderr.trim();
        throw new JailError(
          "unavailable",
          `the agent's jail could not be built: ${why.slice(0, 500)}`,
        );
      }
    },
  };
}

function within(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

function pickUid(): number {
  for (let i = 0; i < 100; i++) {
    const uid = randomInt(UID_RANGE[0], UID_RANGE[1]);
    if (!uidInUse(uid)) return uid;
  }
  throw new JailError("unavailable", "no free uid for the agent's jail after 100 tries");
}
