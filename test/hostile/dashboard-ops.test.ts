import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSettings, SettingsError } from "../../app/src/settings.ts";
import { startDashboardHarness } from "../e2e/dashboard-steps.ts";
import { Browser, type SignInHarness, startSignInHarness } from "../e2e/sign-in-steps.ts";
import { type Harness, startHarness } from "../support/app-harness.ts";
import { startGoal } from "../support/goal-steps.ts";

/** A GET with headers fetch will not let us forge (Host), over the App's real HTTP server. */
function get(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        body += c;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/**
 * The no-sign-in demo dashboard acts as its owner, so loopback alone is not enough: a local
 * reverse proxy forwards strangers from loopback, and a DNS-rebinding page reaches it under
 * its own host name. It answers only requests addressed to the names it serves, never
 * forwarded ones; and its notice line shows only notices LoopX knows, by key.
 */
describe("hostile: the demo dashboard", () => {
  let h: Harness;
  let port: string;
  beforeAll(async () => {
    h = await startDashboardHarness("demo");
    await startGoal(h, "alice");
    port = new URL(h.appUrl).port;
  });
  afterAll(() => h.close());

  it("answers the loopback names it serves", async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      expect((await get(h.appUrl, "/loopx", { host })).status).toBe(200);
    }
  });

  it("refuses another Host (DNS rebinding), even from loopback", async () => {
    for (const host of [
      `rebind.attacker.example:${port}`,
      "127.0.0.1",
      `localhost:${Number(port) + 1}`,
    ]) {
      const r = await get(h.appUrl, "/loopx", { host });
      expect(r.status, host).toBe(403);
      expect(r.body).not.toContain("Gates waiting");
    }
  });

  it("refuses forwarded requests (a reverse proxy in front)", async () => {
    for (const [name, value] of [
      ["x-forwarded-for", "203.0.113.7"],
      ["forwarded", "for=203.0.113.7"],
      ["x-real-ip", "203.0.113.7"],
      ["via", "1.1 proxy"],
    ] as const) {
      const r = await get(h.appUrl, "/loopx", { host: `127.0.0.1:${port}`, [name]: value });
      expect(r.status, name).toBe(403);
    }
  });

  it("?notice= shows only a notice LoopX knows, never the text it is given", async () => {
    const forged = "LoopX: your session expired, re-enter your GitHub token at evil.example";
    const r = await get(h.appUrl, `/loopx?notice=${encodeURIComponent(forged)}`);
    expect(r.status).toBe(200);
    expect(r.body).not.toContain("evil.example");
    expect(r.body).not.toContain('class="notice"');
    const known = await get(h.appUrl, "/loopx?notice=approve-posted");
    expect(known.body).toMatch(/<p class="notice">[^<]*approval was posted/);
  });

  it("metrics are not served to anyone when no token or port is configured", async () => {
    const r = await get(h.appUrl, "/metrics");
    expect(r.status).toBe(404);
    expect(r.body).not.toContain("loopx_spend_usd");
    expect(r.body).toContain("LOOPX_METRICS_TOKEN");
  });
});

describe("hostile: the App has no no-sign-in dashboard", () => {
  const env = {
    APP_ID: "1",
    WEBHOOK_SECRET: "s",
    DATABASE_URL: "postgres://x@db/x",
    LOOPX_DASHBOARD: "demo",
  };
  const problems = (extra: Record<string, string>) => {
    try {
      parseSettings({ ...env, ...extra }, { readFile: () => "" });
    } catch (error) {
      if (error instanceof SettingsError) return error.problems.join("\n");
      throw error;
    }
    return "";
  };

  it("LOOPX_DASHBOARD=demo refuses to start, on a public address and on loopback alike", () => {
    // The buttons that comment as an owner live in the demo's own program, not in the App.
    for (const HOST of ["0.0.0.0", "192.0.2.10", "127.0.0.1"]) {
      expect(problems({ HOST }), HOST).toContain("LOOPX_DASHBOARD must be off or readonly");
    }
    expect(problems({ LOOPX_DASHBOARD: "off", HOST: "0.0.0.0" })).not.toContain("LOOPX_DASHBOARD");
  });
});

describe("hostile: /metrics behind a bearer token", () => {
  let h: Harness;
  const token = "metrics-token-0123456789abcdef0123456789";
  beforeAll(async () => {
    h = await startHarness({ app: { metrics: { token } } });
  });
  afterAll(() => h.close());

  it("without the token: 401, no spend listed; with it: the figures", async () => {
    for (const auth of [undefined, "Bearer wrong", `Basic ${token}`]) {
      const r = await get(h.appUrl, "/metrics", auth ? { authorization: auth } : {});
      expect(r.status, auth).toBe(401);
      expect(r.body).not.toContain("loopx_spend_usd");
    }
    const ok = await get(h.appUrl, "/metrics", { authorization: `Bearer ${token}` });
    expect(ok.status).toBe(200);
    expect(ok.body).toContain("# TYPE loopx_inbox_pending gauge");
  });
});

describe("hostile: signing out ends the session on the server", () => {
  let h: SignInHarness;
  beforeAll(async () => {
    h = await startSignInHarness();
  });
  afterAll(() => h.close());

  it("the sealed cookie kept from before the sign-out no longer signs anyone in", async () => {
    h.sandbox.oauth.signIn("alice");
    const b = new Browser();
    expect((await b.open(`${h.appUrl}/loopx`)).status).toBe(200);
    const cookie = `loopx_session=${b.cookies(h.appUrl).get("loopx_session")}`;
    const out = await fetch(`${h.appUrl}/loopx/auth/logout`, {
      method: "POST",
      headers: { cookie },
    });
    expect(out.status).toBe(200);
    // A copy of the cookie (another tab, a stolen one) is replayed after the sign-out.
    const replay = await fetch(`${h.appUrl}/loopx`, { redirect: "manual", headers: { cookie } });
    expect(replay.status).toBe(302);
    const api = await fetch(`${h.appUrl}/loopx/api/goals`, { headers: { cookie } });
    expect(api.status).toBe(401);
  });
});
