/**
 * A throwaway PostgreSQL cluster for tests and benchmarks: initdb in a temp dir, pg_ctl on a
 * free loopback port, trust auth, no fsync. Torn down with stop(). As root the cluster runs
 * as the `postgres` user (PostgreSQL refuses to run as root).
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chmod, chown, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export const NO_BINARIES_MESSAGE =
  "PostgreSQL binaries not found: store tests run on PGlite only; install postgresql to run the real-server suite";

/** PG_BIN, else the newest /usr/lib/postgresql/<major>/bin that has initdb and pg_ctl. */
export function findPgBin(): string | null {
  const candidates: string[] = [];
  if (process.env.PG_BIN) candidates.push(process.env.PG_BIN);
  const root = "/usr/lib/postgresql";
  if (existsSync(root)) {
    const majors = readdirSync(root)
      .filter((d) => /^\d+$/.test(d))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...majors.map((m) => join(root, m, "bin")));
  }
  return (
    candidates.find((d) => existsSync(join(d, "initdb")) && existsSync(join(d, "pg_ctl"))) ?? null
  );
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function postgresIds(): Promise<{ uid: number; gid: number }> {
  const uid = Number((await run("id", ["-u", "postgres"])).stdout.trim());
  const gid = Number((await run("id", ["-g", "postgres"])).stdout.trim());
  return { uid, gid };
}

export interface PgServer {
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url: string;
  port: number;
  /** The server's log, for diagnosing a failed start or slow statements; removed by stop(). */
  logFile: string;
  /** Shuts the server down (fast: sessions are cut, as a restart or failover does), keeping its data. */
  halt(): Promise<void>;
  /** Starts a halted server again, on the same port and data. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

export async function startPostgres(opts: { database?: string } = {}): Promise<PgServer> {
  const bin = findPgBin();
  if (!bin) throw new Error(NO_BINARIES_MESSAGE);
  const asRoot = process.getuid?.() === 0;
  const dir = await mkdtemp(join(tmpdir(), "loopx-pg-"));
  const data = join(dir, "data");
  // runuser keeps the environment minimal and needs the user to reach the directory.
  const exec = async (cmd: string, args: string[]) => {
    const full = join(bin, cmd);
    return asRoot ? run("runuser", ["-u", "postgres", "--", full, ...args]) : run(full, args);
  };
  if (asRoot) {
    const { uid, gid } = await postgresIds();
    await chown(dir, uid, gid);
    await chmod(dir, 0o700);
  }
  const port = await freePort();
  const stop = async () => {
    await exec("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => {});
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await exec("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"]);
    const settings = [
      `-p ${port}`,
      "-c listen_addresses=127.0.0.1",
      `-c unix_socket_directories=${dir}`,
      "-c fsync=off",
      "-c synchronous_commit=off",
      "-c full_page_writes=off",
      "-c max_connections=200",
    ].join(" ");
    const start = () =>
      exec("pg_ctl", ["-D", data, "-o", settings, "-l", join(dir, "log"), "-w", "start"]);
    await start();
    const halt = async () => {
      await exec("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
    };
    const resume = async () => {
      await start();
    };
    const database = opts.database ?? "loopx_test";
    await exec("createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", database]);
    const url = `postgres://postgres@127.0.0.1:${port}/${database}`;
    return { url, port, logFile: join(dir, "log"), halt, resume, stop };
  } catch (err) {
    await stop();
    throw new Error(
      `could not start a throwaway PostgreSQL with ${bin}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}
