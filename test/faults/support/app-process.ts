/**
 * The App as `npm start` runs it (one node process loading tsx), in its own process group so a
 * test can SIGKILL it whole, as a lost machine or an OOM kill would.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * tsx as `--import` loads it: the checkout's own; a checkout installed without one (from
 * before tsx was a production dependency) runs on this one's.
 */
const tsxFor = (checkout: string) =>
  existsSync(join(checkout, "node_modules", "tsx"))
    ? "tsx"
    : pathToFileURL(join(process.cwd(), "node_modules", "tsx", "dist", "loader.mjs")).href;

export interface AppProcess {
  child: ChildProcess;
  base: string;
  output(): string;
  exited: Promise<number | null>;
  /** SIGKILL to the whole process group; resolves once it is gone. */
  kill(): Promise<void>;
  /**
   * SIGTERM to the process a deploy signals (tsx, which relays it to node); resolves with the
   * exit code. Not to the group: node would get it twice, and the second cuts shutdown short.
   */
  stop(): Promise<number | null>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** The settings `npm start` needs to run as the sandbox's App on a PostgreSQL database. */
export function appProcessEnv(opts: {
  sandbox: { gheUrl: string; url: string };
  appId: number;
  privateKey: string;
  webhookSecret: string;
  databaseUrl: string;
}): Record<string, string> {
  return {
    APP_ID: String(opts.appId),
    PRIVATE_KEY: opts.privateKey.trim().replaceAll("\n", "\\n"),
    WEBHOOK_SECRET: opts.webhookSecret,
    // The deployment's URL: the OIDC audience its tick API accepts.
    LOOPX_PUBLIC_URL: "https://loopx.example.com",
    DATABASE_URL: opts.databaseUrl,
    GITHUB_API_URL: opts.sandbox.gheUrl,
    GITHUB_SERVER_URL: opts.sandbox.url,
    LOOPX_POLL_INTERVAL_MS: "100",
  };
}

/** Starts `app/src/run.ts` of the checkout in `cwd` (this one by default). */
export async function startAppProcess(
  env: Record<string, string>,
  opts: { cwd?: string } = {},
): Promise<AppProcess> {
  const port = await freePort();
  let out = "";
  const cwd = opts.cwd ?? process.cwd();
  const child = spawn(process.execPath, ["--import", tsxFor(cwd), "app/src/run.ts"], {
    cwd,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const collect = (b: Buffer) => {
    out += b.toString();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  let health = 0;
  while (health !== 200 && child.exitCode === null) {
    health = await fetch(`${base}/healthz`).then(
      (r) => r.status,
      () => 0,
    );
    if (health !== 200) await new Promise((r) => setTimeout(r, 100));
  }
  if (health !== 200) throw new Error(`the App did not start:\n${out}`);
  const group = (signal: NodeJS.Signals) => {
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, signal);
  };
  return {
    child,
    base,
    output: () => out,
    exited,
    async kill() {
      group("SIGKILL");
      await exited;
    },
    async stop() {
      if (child.pid !== undefined && child.exitCode === null) process.kill(child.pid, "SIGTERM");
      return exited;
    },
  };
}
