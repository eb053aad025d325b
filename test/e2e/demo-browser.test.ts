import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { readKey } from "@loopx/github";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { DemoOptions } from "../../packages/demo/src/demo-options.ts";
import { DEMO_REPO, OWNER } from "../../packages/demo/src/demo-project.ts";
import { runDemo } from "../../packages/demo/src/main.ts";
import type { Stack } from "../../packages/demo/src/start-stack.ts";
import { CHROMIUM, CHROMIUM_ARGS, HAVE_CHROMIUM } from "../support/chromium.ts";
import { freshDatabase } from "../support/databases.ts";
import { type CliRun, runLoopx } from "./cli-steps.ts";

const serverUrl = inject("pgUrl");
const skip = !HAVE_CHROMIUM
  ? `${CHROMIUM} is absent (apt-get install -y chromium; .ci/run does)`
  : serverUrl
    ? ""
    : inject("pgSkipReason");
if (skip) console.warn(`\n*** demo-browser: SKIPPED — ${skip} ***\n`);

/** Kept after the run (CI can upload the folder); not in git. */
const ARTIFACTS = resolve(import.meta.dirname, "../../.loopx/test-artifacts");

const Comments = z
  .object({
    comments_list: z.array(
      z.object({ body: z.string().nullable(), user: z.object({ login: z.string() }) }).loose(),
    ),
  })
  .loose();

/**
 * Scenario: `npm run demo` without `--yes` — the demo stops at the merge gate and waits for the
 * person. A real browser opens the dashboard the demo printed, clicks Approve on the gate,
 * confirms what the approval covers (the head, its size, its CI), and the demo goes on to merge
 * and finish; the goal issue in the sandbox shows the owner's command
 * and LoopX's receipt. The screenshot is kept under .loopx/test-artifacts/.
 */
describe.skipIf(skip !== "")("e2e: approving the demo's merge gate in a browser", () => {
  let db: { url: string; drop(): Promise<void> } | undefined;
  let workDir = "";
  let profile = "";
  beforeAll(async () => {
    db = await freshDatabase(serverUrl ?? "");
    workDir = mkdtempSync(join(tmpdir(), "loopx-demo-browser-"));
    profile = mkdtempSync(join(tmpdir(), "loopx-chromium-"));
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await db?.drop();
    rmSync(workDir, { recursive: true, force: true });
    rmSync(profile, { recursive: true, force: true });
  });

  it("the person clicks Approve in the dashboard; the demo merges and finishes", async () => {
    let stack: Stack | null = null;
    let clicked = "";
    let issueNumber = 0;
    let gateHead = "";
    const cli: Record<string, CliRun> = {};
    const shot = join(ARTIFACTS, "demo-dashboard-approved.png");
    const out: string[] = [];

    /** Runs while the demo waits for the owner: the gate is on the dashboard with its buttons. */
    const approveInBrowser = async (gateKey: string) => {
      if (!stack) throw new Error("the demo's stack never started");
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: CHROMIUM_ARGS,
      });
      try {
        const page = await context.newPage();
        await page.goto(`${stack.appUrl}/loopx`);
        const button = page.getByRole("button", { name: `Approve ${gateKey}` });
        // A merge gate covers one head: the dashboard shows what it covers and asks to confirm.
        await Promise.all([page.waitForURL(/\/loopx\/gates$/), button.click()]);
        const preview = (await page.textContent("section.confirm")) ?? "";
        expect(preview).toContain("What an approval covers");
        expect(preview).toContain("CI: every required check passed");
        const confirm = page.getByRole("button", {
          name: new RegExp(`^Confirm: approve ${gateKey} at [0-9a-f]{12}$`),
        });
        await Promise.all([page.waitForURL(/notice=/), confirm.click()]);
        expect(await page.textContent("p.notice")).toContain(`/loopx approve ${gateKey}`);
        // The comment is processed asynchronously; the page shows the gate gone once it is.
        for (let i = 0; i < 40 && (await button.count()) > 0; i++) {
          await new Promise((r) => setTimeout(r, 250));
          await page.reload();
        }
        expect(await button.count(), `${gateKey} is still waiting on the dashboard`).toBe(0);
        await page.screenshot({ path: shot, fullPage: true });
        clicked = gateKey;
      } finally {
        await context.close();
      }
    };

    const result = await runDemo(
      DemoOptions.parse({
        yes: false,
        harness: "shell",
        databaseUrl: db?.url,
        settingsFile: join(workDir, "demo.env"),
      }),
      {
        print: (line) => out.push(line),
        log: { info: () => {}, warn: () => {}, error: (m) => out.push(`app error: ${m}`) },
        workDir,
        confirm: null,
        onStart: (s) => {
          stack = s;
        },
        onStep: async (step, facts) => {
          issueNumber = facts.issue;
          if (step !== "review-addressed") return;
          const s = await stack?.store.loadGoal(facts.goalId);
          const gate = s?.gates.find((g) => g.scopes.includes("merge") && g.status === "open");
          if (!gate?.pr) throw new Error("no open merge gate when the demo waits for the owner");
          gateHead = gate.pr.headSha;
          // The CLI talks to the running demo's app (never to its database).
          const url = stack?.appUrl ?? "";
          cli.status = await runLoopx(["status", "--url", url, "--json"]);
          const settings = stack?.settingsFile ?? "";
          cli.doctor = await runLoopx(["doctor", "--settings", settings, "--json"]);
          cli.repo = await runLoopx(["doctor", DEMO_REPO.fullName, "--settings", settings]);
          await approveInBrowser(gate.key);
        },
        beforeStop: async (s) => {
          const issue = Comments.parse(s.sandbox.issue(DEMO_REPO.fullName, issueNumber));
          const command = issue.comments_list.find(
            (c) => c.user.login === OWNER && (c.body ?? "").startsWith(`/loopx approve ${clicked}`),
          );
          expect(command, "the owner's approval comment, posted by the dashboard").toBeDefined();
          const receipts = issue.comments_list
            .filter((c) => c.user.login === "loopx[bot]")
            .map((c) => readKey(c.body ?? ""));
          // A merge gate's receipt names the head the approval covers.
          expect(receipts).toContain(`receipt:gate:${clicked}:approved@${gateHead}`);
        },
      },
    ).catch((error: unknown) => {
      throw new Error(
        `${error instanceof Error ? error.message : String(error)}\n${out.join("\n")}`,
      );
    });

    expect(clicked).toMatch(/^G[0-9]+$/);
    expect(cli.status?.code, cli.status?.stderr).toBe(0);
    const listed = z
      .object({
        goals: z.array(
          z.object({ issueNumber: z.number(), openGates: z.array(z.string()) }).loose(),
        ),
      })
      .loose()
      .parse(JSON.parse(cli.status?.stdout ?? ""));
    expect(listed.goals.find((g) => g.issueNumber === issueNumber)?.openGates).toEqual([clicked]);
    expect(cli.doctor?.code, `${cli.doctor?.stdout}${cli.doctor?.stderr}`).toBe(0);
    // The doctor checked the demo's own deployment: its database, its App, its app's health.
    const checked = z
      .object({ findings: z.array(z.object({ level: z.string(), message: z.string() })) })
      .parse(JSON.parse(cli.doctor?.stdout ?? ""));
    const said = checked.findings.map((f) => f.message).join("\n");
    expect(said).toContain("the database is reachable and migrated");
    expect(said).toContain("GitHub accepts the App's credentials (App loopx)");
    expect(said).toContain("is healthy");
    expect(cli.repo?.code, `${cli.repo?.stdout}${cli.repo?.stderr}`).toBe(0);
    expect(result.state?.goal.status).toBe("done");
    expect(result.state?.gates.find((g) => g.key === clicked)).toMatchObject({
      status: "approved",
      resolvedBy: OWNER,
    });
    const png = readFileSync(shot);
    expect(png.subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    console.info(`demo dashboard screenshot: ${shot}`);
  }, 240_000);
});
