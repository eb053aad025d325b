/**
 * The App as `npm start` runs it (tsx app/src/run.ts), in its own process group so a test can
 * SIGKILL it whole (tsx and the node it starts), as a lost machine or an OOM kill would.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";

const TSX = join(process.cwd(), "node_modules", ".bin", "tsx");

export interface AppProcess {
  child: ChildProcess;
  base: string;
  output(): string;
  exited: Promise<number | null>;
  /** SIGKILL to the whole process group; resolves once it is gone. */
  kill(): Promise<void>;
  /** SIGTERM, as a deploy would; resolves with the exit code. */
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

export async function startAppProcess(env: Record<string, string>): Promise<AppProcess> {
  const port = await freePort();
  let out = "";
  const child = spawn(TSX, ["app/src/run.ts"], {
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
      group("SIGTERM");
      return exited;
    },
  };
}
