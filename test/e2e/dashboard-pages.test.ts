import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { decide, goalStateWords } from "@loopx/core";
import { openStore } from "@loopx/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { escapeHtml, html } from "../../app/src/dashboard/escape-html.ts";
import { createDashboard } from "../../app/src/dashboard/index.ts";
import { demoDashboard } from "../../packages/demo/src/dashboard/demo-dashboard.ts";
import type { Harness } from "../support/app-harness.ts";
import { sharedPglite } from "../support/databases.ts";
import { botComments, comment, goal, openTestGate, startGoal } from "../support/goal-steps.ts";
import { get, recordSlice, startDashboardHarness } from "./dashboard-steps.ts";

const GoalsList = z.object({ goals: z.array(z.record(z.string(), z.unknown())) });
const HOSTILE = `<script>alert("x")</script><img src=x onerror=alert(1)> & 'q' \`b\``;

describe("dashboard: escaping", () => {
  it("escapes every HTML-significant character, in content and attributes", () => {
    expect(escapeHtml(HOSTILE)).not.toMatch(/[<>"'`]/);
    expect(escapeHtml(`"><svg onload=x>`)).toBe("&quot;&gt;&lt;svg onload=x&gt;");
    expect(html`<a title="${HOSTILE}">${HOSTILE}</a>`.value).not.toContain("<script>");
    expect(html`<p>${[html`<b>ok</b>`, "<i>no</i>"]}</p>`.value).toBe(
      "<p><b>ok</b>&lt;i&gt;no&lt;/i&gt;</p>",
    );
  });
});

/**
 * Scenario: the dashboard in demo mode over real HTTP against the app on the sandbox. It
 * shows goals, gates and ticks from the store; a click on approve comments as the owner,
 * and the gate is approved through the normal inbox path.
 */
describe("e2e: dashboard pages (demo)", () => {
  let h: Harness;
  let number: number;
  let goalId: string;
  beforeAll(async () => {
    h = await startDashboardHarness("demo");
    ({ number, goalId } = await startGoal(h, "alice", `Speed up ${HOSTILE}`));
    await recordSlice(h, goalId, { summary: `tests ran ${HOSTILE}`, done: "profiled", usd: 0.25 });
    await recordSlice(h, goalId, { summary: "cache added", done: "cached", usd: 0.5 });
    await openTestGate(h, goalId, { question: `Deploy? ${HOSTILE}`, scopes: ["deploy"] });
  });
  afterAll(() => h.close());

  it("the overview lists the open gate with buttons, and escapes hostile titles", async () => {
    const { status, body } = await get(`${h.appUrl}/loopx`);
    expect(status).toBe(200);
    expect(body).toContain("Gates waiting for you");
    expect(body).toContain(`acme/widgets#${number}`);
    expect(body).toContain('value="approve"');
    expect(body).toContain("Approve G1");
    expect(body).not.toContain("<script>alert");
    expect(body).not.toContain("<img src=x");
    expect(body).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
  });

  it("the goal page shows the board, the gate, the tick timeline with evidence and a cost chart", async () => {
    const { status, body } = await get(`${h.appUrl}/loopx/goals/${goalId}`);
    expect(status).toBe(200);
    expect(body).toContain("Todo board");
    expect(body).toContain("gate.opened");
    expect(body).toContain("cache added");
    expect(body).toContain("done: cached");
    expect(body).toMatch(/<svg class="chart"[^>]*>/);
    expect(body).toContain("$0.75");
    expect(body).toContain(`${h.sandbox.url}/acme/widgets/issues/${number}`);
    expect(body).not.toContain("<script>alert");
  });

  it("stalled and paused goals are listed under what needs you, with the reason", async () => {
    const other = await startGoal(h, "alice", "Second goal");
    await comment(h, "alice", other.number, "/loopx pause");
    const { body } = await get(`${h.appUrl}/loopx`);
    const paused = body.slice(body.indexOf("Paused"), body.indexOf("Running now"));
    expect(paused).toContain(`acme/widgets#${other.number}`);
    expect(paused).toContain("paused by alice");
    // A goal without todos routes to replan: the loop waits for a plan, so it is stalled.
    const fresh = await startGoal(h, "alice", "Third goal");
    const state = await goal(h, fresh.goalId);
    const now = await h.store.databaseNow();
    const decision = decide(state, now, "test");
    expect(decision.route).toBe("replan");
    const again = await get(`${h.appUrl}/loopx`);
    const stalled = again.body.slice(
      again.body.indexOf("Stalled goals"),
      again.body.indexOf("Paused"),
    );
    expect(stalled).toContain(`acme/widgets#${fresh.number}`);
    // Named in people's words, never by the kernel's route.
    expect(stalled).toContain(`>${goalStateWords(state, decision, now)}<`);
    expect(stalled).not.toContain(">replan<");
  });

  it("the JSON API summarises goals and one goal", async () => {
    const list = GoalsList.parse(await (await fetch(`${h.appUrl}/loopx/api/goals`)).json());
    expect(list.goals.find((g) => g.issueNumber === number)).toMatchObject({
      repo: "acme/widgets",
      issueNumber: number,
      openGates: ["G1"],
    });
    const one = await fetch(`${h.appUrl}/loopx/api/goals/acme/widgets/${number}`);
    expect(await one.json()).toMatchObject({ id: goalId, gates: [{ key: "G1", status: "open" }] });
    expect((await fetch(`${h.appUrl}/loopx/api/goals/acme/widgets/999`)).status).toBe(404);
  });

  it("a post without the form's token is refused", async () => {
    const res = await fetch(`${h.appUrl}/loopx/gates`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf: "forged", goal: goalId, gate: "G1", decision: "approve" }),
    });
    expect(res.status).toBe(403);
    expect((await goal(h, goalId)).gates[0]?.status).toBe("open");
  });

  it("approve posts the owner's comment; the inbox approves the gate with a receipt", async () => {
    const page = await get(`${h.appUrl}/loopx`);
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? "";
    const res = await fetch(`${h.appUrl}/loopx/gates`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf, goal: goalId, gate: "G1", decision: "approve" }),
    });
    expect(res.status).toBe(303);
    await h.settle();
    const { data } = await h.as("alice").rest.issues.listComments({
      owner: "acme",
      repo: "widgets",
      issue_number: number,
    });
    expect(data.some((c) => c.user?.login === "alice" && c.body === "/loopx approve G1")).toBe(
      true,
    );
    expect((await goal(h, goalId)).gates[0]).toMatchObject({
      status: "approved",
      resolvedBy: "alice",
    });
    const receipts = (await botComments(h, number)).map((c) => c.key);
    expect(receipts).toContain("receipt:gate:G1:approved");

    // The goal page says it in words, links to the comment that approved, and keeps the
    // ledger's raw data behind a toggle.
    const approval = data.find((c) => c.user?.login === "alice" && c.body === "/loopx approve G1");
    const goalPage = await get(`${h.appUrl}/loopx/goals/${goalId}`);
    const section = goalPage.body.slice(goalPage.body.indexOf("<h2>Receipts</h2>"));
    expect(section).toMatch(/alice approved G1 \([^)]*\) at \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(section).toContain(`<a href="${approval?.html_url}">the act</a>`);
    const outsideToggles = section.replace(/<details>[\s\S]*?<\/details>/g, "");
    expect(outsideToggles).not.toContain("gate.approved");
    expect(outsideToggles).not.toContain("{&quot;");
  });
});

describe("e2e: dashboard guard", () => {
  it("off: /loopx is not served (404)", async () => {
    const h = await startDashboardHarness("off");
    try {
      expect((await get(`${h.appUrl}/loopx`)).status).toBe(404);
      expect((await get(`${h.appUrl}/loopx/api/goals`)).status).toBe(404);
    } finally {
      await h.close();
    }
  });

  it("readonly without a session: 401 explaining sign-in; no gate buttons can post", async () => {
    const h = await startDashboardHarness("readonly");
    try {
      const page = await get(`${h.appUrl}/loopx`);
      expect(page.status).toBe(401);
      expect(page.body).toContain("GitHub App user OAuth");
      expect((await get(`${h.appUrl}/loopx/api/goals`)).status).toBe(401);
      const post = await fetch(`${h.appUrl}/loopx/gates`, { method: "POST", body: "" });
      expect(post.status).toBe(401);
    } finally {
      await h.close();
    }
  });

  it("readonly with a session shows only goals in repositories the person can read, without buttons, and refuses the demo's button route", async () => {
    // A stand-in for GitHub App user OAuth: the header names who is signed in.
    const h = await startDashboardHarness("readonly", {
      session: async (req) => {
        const login = req.headers["x-test-login"];
        if (login === "rita") return { login, canRead: async (repo) => repo === "acme/widgets" };
        if (login === "eve") return { login, canRead: async () => false };
        return null;
      },
    });
    try {
      const { number, goalId } = await startGoal(h, "alice", "Visible to readers");
      await openTestGate(h, goalId, { question: "Deploy?", scopes: ["deploy"] });
      const as = (login: string, path: string) =>
        fetch(`${h.appUrl}${path}`, { headers: { "x-test-login": login } });
      const rita = await (await as("rita", "/loopx")).text();
      expect(rita).toContain(`acme/widgets#${number}`);
      expect(rita).not.toContain('value="approve"');
      expect(rita).toContain("/loopx approve G1");
      const eve = await (await as("eve", "/loopx")).text();
      expect(eve).not.toContain("Visible to readers");
      expect((await as("eve", `/loopx/goals/${goalId}`)).status).toBe(404);
      expect((await as("eve", `/loopx/api/goals/acme/widgets/${number}`)).status).toBe(404);
      expect((await as("rita", `/loopx/api/goals/acme/widgets/${number}`)).status).toBe(200);
      // The route the demo's buttons post to does not exist in the App: a signed-in reader
      // with a well-formed decision changes nothing.
      const post = await fetch(`${h.appUrl}/loopx/gates`, {
        method: "POST",
        headers: { "x-test-login": "rita", "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrf: "any", goal: goalId, gate: "G1", decision: "approve" }),
      });
      expect(post.status).toBe(405);
      expect(await post.text()).toContain("/loopx approve G1");
      await h.settle();
      expect((await goal(h, goalId)).gates[0]?.status).toBe("open");
    } finally {
      await h.close();
    }
  });

  it("demo answers loopback only: a request from another address is refused (403)", async () => {
    const store = await openStore({ pglite: await sharedPglite() });
    const owner = { login: "alice", token: "unused", apiUrl: "http://127.0.0.1:9" };
    const serve = createDashboard(
      { store, log: console, serverUrl: "" },
      { mode: "open", extension: demoDashboard({ store, owner }) },
    );
    const socket = new Socket();
    Object.defineProperty(socket, "remoteAddress", { value: "203.0.113.5" });
    const req = new IncomingMessage(socket);
    req.method = "GET";
    req.url = "/loopx";
    const res = new ServerResponse(req);
    expect(await serve(req, res)).toBe(true);
    expect(res.statusCode).toBe(403);
    socket.destroy();
  });
});
