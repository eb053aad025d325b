import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, setup } from "./helpers.ts";

/** GitHub's OAuth endpoints as a client meets them: forms by default, errors as 200 bodies. */
describe("sandbox: GitHub App user authorization", () => {
  let t: Awaited<ReturnType<typeof setup>>;
  let clientId: string;
  let secret: string;
  const redirect = "http://127.0.0.1:9/cb";
  beforeAll(async () => {
    t = await setup();
    clientId = t.app.clientId;
    secret = t.sandbox.oauth.clientSecret(clientId);
  });
  afterAll(() => t.sandbox.stop());

  const form = (path: string, fields: Record<string, string>) =>
    fetch(`${t.sandbox.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields),
    });
  async function code(login: string): Promise<string> {
    t.sandbox.oauth.signIn(login);
    const res = await fetch(
      `${t.sandbox.url}/login/oauth/authorize?client_id=${clientId}&redirect_uri=${encodeURIComponent(redirect)}&state=xyz`,
      { redirect: "manual" },
    );
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get("location") ?? "");
    expect(to.origin + to.pathname).toBe(redirect);
    expect(to.searchParams.get("state")).toBe("xyz");
    return to.searchParams.get("code") ?? "";
  }

  it("answers a form with a form by default; a code works once, for its client and redirect", async () => {
    const c = await code("alice");
    const res = await form("/login/oauth/access_token", {
      client_id: clientId,
      client_secret: secret,
      code: c,
    });
    expect(res.headers.get("content-type")).toMatch(/^application\/x-www-form-urlencoded/);
    const answer = new URLSearchParams(await res.text());
    expect(answer.get("access_token")).toMatch(/^ghu_/);
    expect(answer.get("token_type")).toBe("bearer");
    const me = await client(
      t.sandbox,
      answer.get("access_token") ?? "",
    ).rest.users.getAuthenticated();
    expect(me.data.login).toBe("alice");
    const again = await form("/login/oauth/access_token", {
      client_id: clientId,
      client_secret: secret,
      code: c,
    });
    expect(new URLSearchParams(await again.text()).get("error")).toBe("bad_verification_code");
    const wrongSecret = await form("/login/oauth/access_token", {
      client_id: clientId,
      client_secret: "nope",
      code: await code("alice"),
    });
    expect(new URLSearchParams(await wrongSecret.text()).get("error")).toBe(
      "incorrect_client_credentials",
    );
    const mismatch = await form("/login/oauth/access_token", {
      client_id: clientId,
      client_secret: secret,
      code: await code("alice"),
      redirect_uri: "http://127.0.0.1:9/elsewhere",
    });
    expect(new URLSearchParams(await mismatch.text()).get("error")).toBe("redirect_uri_mismatch");
  });

  it("authorize: unknown client 404; nobody signed in 401", async () => {
    t.sandbox.oauth.signIn(null);
    const url = `${t.sandbox.url}/login/oauth/authorize?client_id=${clientId}&redirect_uri=${encodeURIComponent(redirect)}`;
    expect((await fetch(url, { redirect: "manual" })).status).toBe(401);
    const unknown = url.replace(clientId, "Iv1.nobody");
    expect((await fetch(unknown, { redirect: "manual" })).status).toBe(404);
  });

  it("device flow: pending, slow_down when polled too fast, denied", async () => {
    t.sandbox.oauth.deviceInterval = 5;
    const started = new URLSearchParams(
      await (await form("/login/device/code", { client_id: clientId })).text(),
    );
    expect(started.get("user_code")).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    expect(started.get("interval")).toBe("5");
    const poll = {
      client_id: clientId,
      device_code: started.get("device_code") ?? "",
      grant_type: "urn:ietf:params:oauth:grant-type:device_code",
    };
    const first = new URLSearchParams(await (await form("/login/oauth/access_token", poll)).text());
    expect(first.get("error")).toBe("authorization_pending");
    const fast = new URLSearchParams(await (await form("/login/oauth/access_token", poll)).text());
    expect(fast.get("error")).toBe("slow_down");
    expect(fast.get("interval")).toBe("10");
    t.sandbox.oauth.approveDevice(started.get("user_code") ?? "", "bob", false);
    const grant = t.sandbox.oauth.devices.get(poll.device_code);
    if (grant) grant.lastPollAt = 0; // as if the client had waited
    const denied = new URLSearchParams(
      await (await form("/login/oauth/access_token", poll)).text(),
    );
    expect(denied.get("error")).toBe("access_denied");
  });

  it("GET /user: not for installation tokens; a revoked user token is refused", async () => {
    await expect(t.bot.rest.users.getAuthenticated()).rejects.toMatchObject({ status: 403 });
    const answer = new URLSearchParams(
      await (
        await form("/login/oauth/access_token", {
          client_id: clientId,
          client_secret: secret,
          code: await code("bob"),
        })
      ).text(),
    );
    const bob = client(t.sandbox, answer.get("access_token") ?? "");
    expect((await bob.rest.users.getAuthenticated()).data.login).toBe("bob");
    expect(t.sandbox.oauth.revoke("bob")).toBe(1);
    await expect(bob.rest.users.getAuthenticated()).rejects.toMatchObject({ status: 401 });
  });
});
