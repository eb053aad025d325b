import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { createServer, IncomingMessage } from "node:http";
import { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { TokenRefused } from "../../app/src/dashboard/github-user-auth.ts";
import { cookieSealer, createSignIn, githubSignIn } from "../../app/src/dashboard/index.ts";
import { startGoal } from "../support/goal-steps.ts";
import { runLoopx } from "./cli-steps.ts";
import {
  Browser,
  SESSION_SECRET,
  type SignInHarness,
  startSecretGoal,
  startSignInHarness,
} from "./sign-in-steps.ts";

const Goals = z.object({ goals: z.array(z.object({ repo: z.string(), title: z.string() })) });
const ENTRY = fileURLToPath(new URL("../../packages/cli/src/loopx.ts", import.meta.url));

/**
 * Scenario: a real deployment's read-only dashboard behind GitHub App user authorization, on
 * the sandbox's GitHub. rita reads acme/widgets only; alice maintains acme/widgets and
 * acme/secret. Everything over real HTTP: the browser's redirects, the code exchange, the
 * app asking GitHub what each person can read.
 */
describe("e2e: dashboard sign-in (GitHub App user authorization)", () => {
  let h: SignInHarness;
  let widgets: { number: number; goalId: string };
  let secret: { number: number; goalId: string };
  beforeAll(async () => {
    h = await startSignInHarness();
    widgets = await startGoal(h, "alice", "Widget goal");
    secret = await startSecretGoal(h, "Secret goal");
  });
  afterAll(() => h.close());

  it("unauthenticated: pages redirect to sign-in, the API answers 401 saying what to do", async () => {
    const page = await fetch(`${h.appUrl}/loopx/goals/${widgets.goalId}`, { redirect: "manual" });
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe(
      `/loopx/auth/login?next=${encodeURIComponent(`/loopx/goals/${widgets.goalId}`)}`,
    );
    const api = await fetch(`${h.appUrl}/loopx/api/goals`);
    expect(api.status).toBe(401);
    expect(api.headers.get("www-authenticate")).toContain("Bearer");
    const body = z.object({ error: z.string() }).parse(await api.json());
    expect(body.error).toContain(`loopx login --url ${h.appUrl}`);
    const post = await fetch(`${h.appUrl}/loopx/gates`, { method: "POST", body: "" });
    expect(post.status).toBe(401);
  });

  it("rita signs in through GitHub and sees only the goals of repositories she can read", async () => {
    h.sandbox.oauth.signIn("rita");
    const b = new Browser();
    const landed = await b.open(`${h.appUrl}/loopx/goals/${widgets.goalId}`);
    expect(b.hops.map((x) => x.status)).toEqual([302, 302, 302, 303, 200]);
    expect(b.hops[1]?.location).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/login\/oauth\/authorize\?/);
    const authorize = new URL(b.hops[1]?.location ?? "");
    expect(authorize.searchParams.get("client_id")).toBe(h.clientId);
    expect(authorize.searchParams.get("state")?.length).toBeGreaterThanOrEqual(43);
    expect(landed.url).toBe(`${h.appUrl}/loopx/goals/${widgets.goalId}`);
    expect(landed.body).toContain("Widget goal");
    const session = b.hops[3]?.setCookies.find((c) => c.startsWith("loopx_session=")) ?? "";
    expect(session).toMatch(/; Path=\/loopx; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    expect(session).not.toContain("Secure"); // http on loopback; https adds Secure (below)
    expect(session).not.toContain("ghu_"); // the token is sealed, never readable

    const overview = await b.open(`${h.appUrl}/loopx`);
    expect(overview.body).toContain(`acme/widgets#${widgets.number}`);
    expect(overview.body).not.toContain("Secret goal");
    expect(overview.body).not.toContain('value="approve"');
    expect(overview.body).not.toMatch(/gh[uopr]_[A-Za-z0-9]{20}/);
    expect((await b.open(`${h.appUrl}/loopx/goals/${secret.goalId}`)).status).toBe(404);
    const list = Goals.parse(JSON.parse((await b.open(`${h.appUrl}/loopx/api/goals`)).body));
    expect(list.goals.map((g) => g.repo)).toEqual(["acme/widgets"]);
    const one = await b.open(`${h.appUrl}/loopx/api/goals/acme/secret/${secret.number}`);
    expect(one.status).toBe(404);
  });

  it("alice, who maintains both, sees both; signing out ends the session", async () => {
    h.sandbox.oauth.signIn("alice");
    const b = new Browser();
    const overview = await b.open(`${h.appUrl}/loopx`);
    expect(overview.status).toBe(200);
    expect(overview.body).toContain("Widget goal");
    expect(overview.body).toContain("Secret goal");
    expect(overview.body).toMatch(/action="\/loopx\/auth\/logout">alice <button/);
    const cookie = `loopx_session=${b.cookies(h.appUrl).get("loopx_session")}`;
    const out = await fetch(`${h.appUrl}/loopx/auth/logout`, {
      method: "POST",
      headers: { cookie },
    });
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie().join()).toMatch(/loopx_session=; Path=\/loopx; Max-Age=0/);
  });

  it("a callback whose state was not issued to this browser is refused", async () => {
    h.sandbox.oauth.signIn("rita");
    const b = new Browser();
    // The browser starts a sign-in (it holds a state cookie) ...
    await b.open(`${h.appUrl}/loopx/auth/login`, false);
    // ... and is sent a callback with someone else's code and a state of their choosing.
    const forged = await fetch(
      `${h.sandbox.url}/login/oauth/authorize?client_id=${h.clientId}&redirect_uri=${encodeURIComponent(`${h.appUrl}/loopx/auth/callback`)}&state=attacker`,
      { redirect: "manual" },
    );
    const callback = forged.headers.get("location") ?? "";
    const refused = await b.open(callback);
    expect(refused.status).toBe(403);
    expect(refused.body).toContain("did not start here");
    expect(b.cookies(h.appUrl).has("loopx_session")).toBe(false);
    // Without any state cookie (a link from elsewhere), and without a state at all.
    const stranger = new Browser();
    expect((await stranger.open(callback)).status).toBe(403);
    const bare = callback.replace(/&?state=attacker/, "");
    expect((await b.open(bare)).status).toBe(403);
    expect((await b.open(`${h.appUrl}/loopx`, false)).status).toBe(302);
  });

  it("a tampered session cookie is refused", async () => {
    h.sandbox.oauth.signIn("rita");
    const b = new Browser();
    expect((await b.open(`${h.appUrl}/loopx`)).status).toBe(200);
    const jar = b.cookies(h.appUrl);
    const good = jar.get("loopx_session") ?? "";
    const [v, data = "", mac = ""] = good.split(".");
    const flip = (s: string) => `${s.slice(0, 10)}${s[10] === "A" ? "B" : "A"}${s.slice(11)}`;
    for (const bad of [
      `${v}.${flip(data)}.${mac}`,
      `${v}.${data}.${flip(mac)}`,
      "v1.x.y",
      good.slice(0, -2),
    ]) {
      const res = await fetch(`${h.appUrl}/loopx`, {
        redirect: "manual",
        headers: { cookie: `loopx_session=${bad}` },
      });
      expect(res.status, bad).toBe(302);
      const api = await fetch(`${h.appUrl}/loopx/api/goals`, {
        headers: { cookie: `loopx_session=${bad}` },
      });
      expect(api.status).toBe(401);
    }
    expect((await b.open(`${h.appUrl}/loopx`)).status).toBe(200);
  });

  it("a revoked authorization signs the person out on their next request", async () => {
    h.sandbox.oauth.signIn("wendy");
    const b = new Browser();
    expect((await b.open(`${h.appUrl}/loopx`)).status).toBe(200);
    expect(h.sandbox.oauth.revoke("wendy")).toBeGreaterThan(0);
    h.sandbox.oauth.signIn(null);
    const after = await fetch(`${h.appUrl}/loopx`, {
      redirect: "manual",
      headers: { cookie: `loopx_session=${b.cookies(h.appUrl).get("loopx_session")}` },
    });
    expect(after.status).toBe(302);
    expect(after.headers.get("location")).toMatch(/^\/loopx\/auth\/login/);
    expect(after.headers.getSetCookie().join()).toMatch(/loopx_session=; Path=\/loopx; Max-Age=0/);
  });

  it("loopx status without a sign-in fails with exit 5 and says how to sign in", async () => {
    const home = mkdtempSync(join(tmpdir(), "loopx-home-"));
    const r = await runLoopx(["status", "--url", h.appUrl], { HOME: home });
    expect(r.code).toBe(5);
    expect(r.stderr).toContain(`run \`loopx login --url ${h.appUrl}\``);
    expect(r.stdout).toBe("");
    const bad = await runLoopx(["status", "--url", h.appUrl], {
      HOME: home,
      LOOPX_TOKEN: "ghu_nope",
    });
    expect(bad.code).toBe(5);
    expect(bad.stderr).toContain("refused the sign-in from LOOPX_TOKEN");
  });

  it("loopx login (device flow) saves a 0600 token; status then shows rita's goals only", async () => {
    const home = mkdtempSync(join(tmpdir(), "loopx-home-"));
    const child = spawn(process.execPath, ["--import", "tsx", ENTRY, "login", "--url", h.appUrl], {
      env: { PATH: process.env.PATH ?? "", HOME: home },
    });
    let out = "";
    let err = "";
    child.stderr.on("data", (c: Buffer) => {
      err += c.toString();
    });
    const code = await new Promise<number | null>((resolve) => {
      child.stdout.on("data", (c: Buffer) => {
        out += c.toString();
        const shown = /enter the code ([A-Z]{4}-[A-Z]{4})/.exec(out)?.[1];
        if (shown && !out.includes("approved")) {
          out += "(approved)";
          h.sandbox.oauth.approveDevice(shown, "rita");
        }
      });
      child.on("exit", resolve);
    });
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out).toContain(`Signed in to ${h.appUrl} as rita`);
    const file = join(home, ".config", "loopx", "credentials.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8")).toMatch(/"token": "ghu_/);

    const status = await runLoopx(["status", "--url", h.appUrl], { HOME: home });
    expect(status.stderr).toBe("");
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`acme/widgets#${widgets.number}`);
    expect(status.stdout).not.toContain("Secret goal");
    const hidden = await runLoopx(
      ["status", "--url", h.appUrl, "--goal", `acme/secret#${secret.number}`],
      { HOME: home },
    );
    expect(hidden.code).toBe(4);

    const out2 = await runLoopx(["logout", "--url", h.appUrl], { HOME: home });
    expect(out2.stdout).toContain("Signed out");
    expect((await runLoopx(["status", "--url", h.appUrl], { HOME: home })).code).toBe(5);
  });
});

describe("sign-in: cookies and caching", () => {
  // These cases never sign out: no session is ever ended.
  const sessions = { end: async () => {}, ended: async () => false };
  const config = {
    clientId: "Iv1.test",
    clientSecret: "secret",
    sessionSecret: SESSION_SECRET,
    publicUrl: "https://loopx.example.com",
  };

  it("over https the state cookie is Secure, HttpOnly and SameSite=Lax, and GitHub gets a random state", async () => {
    const signIn = githubSignIn(
      config,
      { apiUrl: "https://api.github.com", serverUrl: "https://github.com" },
      sessions,
    );
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      void signIn.handle(req, res, url.pathname, url);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      const states = new Set<string>();
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`http://127.0.0.1:${port}/loopx/auth/login`, {
          redirect: "manual",
        });
        const to = new URL(res.headers.get("location") ?? "");
        expect(to.origin + to.pathname).toBe("https://github.com/login/oauth/authorize");
        expect(to.searchParams.get("redirect_uri")).toBe(
          "https://loopx.example.com/loopx/auth/callback",
        );
        states.add(to.searchParams.get("state") ?? "");
        expect(res.headers.get("set-cookie")).toMatch(
          /^loopx_oauth=v1\.[^;]+; Path=\/loopx\/auth; Max-Age=600; HttpOnly; SameSite=Lax; Secure$/,
        );
      }
      expect(states.size).toBe(2);
    } finally {
      server.close();
    }
  });

  it("GitHub's answers are cached briefly per token, and a bearer token is checked like a cookie", async () => {
    let calls = 0;
    let now = 0;
    const signIn = createSignIn({
      github: {
        authorizeUrl: () => "",
        exchangeCode: async () => ({ ok: false, message: "unused" }),
        login: async (token) => {
          calls++;
          if (token !== "ghu_good") throw new TokenRefused("no");
          return "rita";
        },
        canRead: async (_token, repo) => {
          calls++;
          return repo === "acme/widgets";
        },
      },
      sealer: cookieSealer(SESSION_SECRET),
      clientId: "Iv1.test",
      serverUrl: "https://github.com",
      publicUrl: "https://loopx.example.com",
      sessions,
      cacheMs: 60_000,
      now: () => now,
    });
    const req = (token: string) =>
      Object.assign(new IncomingMessage(new Socket()), {
        headers: { authorization: `Bearer ${token}` },
      });
    const viewer = await signIn.session(req("ghu_good"));
    expect(viewer?.login).toBe("rita");
    expect(await viewer?.canRead("acme/widgets")).toBe(true);
    expect(await viewer?.canRead("acme/secret")).toBe(false);
    await signIn.session(req("ghu_good"));
    await viewer?.canRead("acme/widgets");
    expect(calls).toBe(3);
    now += 61_000;
    await signIn.session(req("ghu_good"));
    expect(calls).toBe(4);
    expect(await signIn.session(req("ghu_bad"))).toBeNull();
  });
});
