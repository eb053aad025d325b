import { execSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../packages/sandbox/src/index.ts";
import { freePort } from "../faults/support/app-process.ts";
import { parseDockerfile } from "./support/dockerfile.ts";
import { nodeBinaryFor, offlineNpm, toolDir } from "./support/replay.ts";

const ROOT = resolve(import.meta.dirname, "../..");

/**
 * Scenario: the README's production start, `npm ci --omit=dev && npm start`, in a checkout of
 * what is committed (git archive HEAD), on the Node release the Dockerfile names (Node 24, from
 * the npm `node` package): only production dependencies are installed, and the App they run
 * answers /healthz and stops on SIGTERM to its process group (what a terminal's Ctrl-C or a
 * service manager sends: npm and tsx stand between it and the App).
 */
describe("install: npm ci --omit=dev && npm start", () => {
  let scratch: string;
  let checkout: string;
  let npmEnv: Record<string, string>;
  let sandbox: Sandbox;
  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), "loopx-start-"));
    checkout = join(scratch, "loopx");
    mkdirSync(checkout);
    execSync(`git archive --format=tar HEAD | tar -x -C ${JSON.stringify(checkout)}`, {
      cwd: ROOT,
    });
    const from = parseDockerfile(readFileSync(join(checkout, "Dockerfile"), "utf8")).find(
      (s) => s.kind === "FROM",
    );
    if (from?.kind !== "FROM") throw new Error("the Dockerfile names no Node image");
    const bin = toolDir(scratch, nodeBinaryFor(from.image));
    const home = join(scratch, "home");
    mkdirSync(home);
    npmEnv = offlineNpm(bin, home);
    sandbox = await createSandbox({ webhookSecret: "start-secret" });
  }, 120_000);
  afterAll(async () => {
    await sandbox?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("installs production dependencies only, then npm start serves /healthz until SIGTERM", async () => {
    const node = spawnSync("node", ["--version"], { env: npmEnv, encoding: "utf8" });
    expect(node.stdout).toMatch(/^v24\./);
    const install = spawnSync("npm", ["ci", "--omit=dev", "--no-audit", "--no-fund"], {
      cwd: checkout,
      env: npmEnv,
      encoding: "utf8",
    });
    expect(install.status, `${install.stdout}\n${install.stderr}`).toBe(0);
    expect(existsSync(join(checkout, "node_modules/probot"))).toBe(true);
    expect(existsSync(join(checkout, "node_modules/vitest"))).toBe(false);
    expect(existsSync(join(checkout, "node_modules/typescript"))).toBe(false);

    const { app, privateKey } = sandbox.createApp({ slug: "loopx" });
    const port = await freePort();
    const child = spawn("npm", ["start"], {
      cwd: checkout,
      env: {
        ...npmEnv,
        APP_ID: String(app.id),
        PRIVATE_KEY: privateKey ?? "",
        WEBHOOK_SECRET: "start-secret",
        GITHUB_API_URL: sandbox.url,
        LOOPX_PUBLIC_URL: `http://127.0.0.1:${port}`,
        LOOPX_DATA_DIR: join(scratch, "data"),
        PORT: String(port),
        HOST: "127.0.0.1",
      },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    child.stdout.on("data", (d) => (output += String(d)));
    child.stderr.on("data", (d) => (output += String(d)));
    const group = child.pid ?? 0;
    const groupAlive = () => {
      try {
        process.kill(-group, 0);
        return true;
      } catch {
        return false;
      }
    };
    try {
      let status = 0;
      const deadline = Date.now() + 90_000;
      while (status !== 200 && Date.now() < deadline && child.exitCode === null) {
        status = await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (r) => r.status,
          () => 0,
        );
        if (status !== 200) await new Promise((r) => setTimeout(r, 500));
      }
      expect(status, output).toBe(200);
      expect(output).toContain(`GitHub API ${sandbox.url}`);
    } finally {
      process.kill(-group, "SIGTERM");
    }
    const deadline = Date.now() + 60_000;
    while (groupAlive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const left = groupAlive();
    if (left) process.kill(-group, "SIGKILL");
    expect(left, output).toBe(false);
    expect(output).toContain("shutting down");
  }, 240_000);
});
