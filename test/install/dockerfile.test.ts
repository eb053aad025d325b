import { execFileSync, execSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../packages/sandbox/src/index.ts";
import { freePort } from "../faults/support/app-process.ts";
import { parseDockerfile } from "./support/dockerfile.ts";
import { healthcheck, type Image, replayBuild, startContainer } from "./support/replay.ts";

const ROOT = resolve(import.meta.dirname, "../..");

/**
 * Scenario: the production image, built as the Dockerfile says from what is committed, starts
 * as a non-root user on the Node it names, keeps its embedded store in its volume, turns
 * healthy, and stops cleanly on SIGTERM. `npm ci --omit=dev` inside it is the production
 * install: no dev dependency is there to lean on.
 */
describe("install: the Dockerfile, replayed", () => {
  let scratch: string;
  let image: Image;
  let sandbox: Sandbox;
  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), "loopx-image-"));
    const context = join(scratch, "context");
    mkdirSync(context);
    execSync(`git archive --format=tar HEAD | tar -x -C ${JSON.stringify(context)}`, { cwd: ROOT });
    const steps = parseDockerfile(readFileSync(join(context, "Dockerfile"), "utf8"));
    image = replayBuild(steps, context, scratch);
    sandbox = await createSandbox({ webhookSecret: "image-secret" });
  }, 300_000);
  afterAll(async () => {
    await sandbox?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("runs CMD as its non-root user until HEALTHCHECK passes, writes its volume, stops on SIGTERM", async () => {
    expect(image.user?.uid).toBeGreaterThan(0);
    expect(image.healthcheck).not.toBeNull();
    // Only production dependencies were installed.
    const modules = readdirSync(join(image.root, image.workdir.slice(1), "node_modules"));
    expect(modules).toContain("probot");
    expect(modules).not.toContain("vitest");
    expect(modules).not.toContain("typescript");

    const { app, privateKey } = sandbox.createApp({ slug: "loopx" });
    const port = await freePort();
    const env = {
      APP_ID: String(app.id),
      PRIVATE_KEY: privateKey ?? "",
      WEBHOOK_SECRET: "image-secret",
      GITHUB_API_URL: sandbox.url,
      LOOPX_PUBLIC_URL: `http://127.0.0.1:${port}`,
      PORT: String(port),
    };
    // Nothing listens yet: the health check must be able to fail.
    expect(healthcheck(image, env)).not.toBe(0);

    const child = startContainer(image, env);
    let output = "";
    child.stdout.on("data", (d) => (output += String(d)));
    child.stderr.on("data", (d) => (output += String(d)));
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
    try {
      let healthy = false;
      const deadline = Date.now() + ((image.healthcheck?.startPeriodSeconds ?? 30) + 60) * 1000;
      while (!healthy && Date.now() < deadline && child.exitCode === null) {
        healthy = healthcheck(image, env) === 0;
        if (!healthy) await new Promise((r) => setTimeout(r, 500));
      }
      expect(healthy, output).toBe(true);
      const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
      expect(/^Uid:\s+(\d+)/m.exec(status)?.[1]).toBe(String(image.user?.uid));
      // The embedded store lives in the declared volume, written by the image's user.
      const dataDir = image.env.LOOPX_DATA_DIR ?? "";
      expect(image.volumes.map((v) => join(image.root, v))).toContain(dataDir);
      const written = readdirSync(dataDir);
      expect(written.length).toBeGreaterThan(0);
      expect(statSync(join(dataDir, written[0] ?? "")).uid).toBe(image.user?.uid);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited, output).toBe(0);
    expect(output).toContain("shutting down");
  }, 240_000);

  it("engines asks for what the production install needs, and the image's Node has it", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      engines: { node: string };
    };
    const floor = Number(/^>=(\d+)$/.exec(pkg.engines.node)?.[1]);
    expect(floor).toBeGreaterThan(0);
    // Every installed production package that states a plain minimum is met by the floor.
    const modules = join(image.root, image.workdir.slice(1), "node_modules");
    const manifests = readdirSync(modules).flatMap((name) =>
      name.startsWith("@")
        ? readdirSync(join(modules, name)).map((sub) => join(modules, name, sub, "package.json"))
        : [join(modules, name, "package.json")],
    );
    const minimums = manifests.flatMap((file) => {
      try {
        const m = JSON.parse(readFileSync(file, "utf8")) as { engines?: { node?: string } };
        const min = /^>=\s*(\d+)(\.\d+)*$/.exec(m.engines?.node?.trim() ?? "")?.[1];
        return min ? [Number(min)] : [];
      } catch {
        return []; // a directory without a manifest (a .bin) states nothing
      }
    });
    expect(Math.max(...minimums)).toBeLessThanOrEqual(floor);
    expect(Math.max(...minimums)).toBe(floor);
    const version = execFileSync(join(image.bin, "node"), ["--version"], { encoding: "utf8" });
    expect(Number(/^v(\d+)/.exec(version)?.[1])).toBeGreaterThanOrEqual(floor);
  });
});
