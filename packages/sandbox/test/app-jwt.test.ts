/**
 * An app's JWT, as GitHub judges it ("Generating a JSON Web Token (JWT) for a GitHub App"):
 * signed RS256 with the app's key, `iss` the app's id or client id, and `exp` no more than ten
 * minutes ahead. The App signs with the machine's clock while tests hold the simulated clock
 * still or jump it ahead, so either clock may judge `exp`; a JWT outside both is refused.
 */
import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../src/index.ts";
import { appJwt, client } from "./helpers.ts";

let sandbox: Sandbox;
let appId: number;
let privateKey: string;
const MINUTE = 60 * 1000;

async function getApp(jwt: string): Promise<{ status: number; message: string }> {
  try {
    const { status } = await client(sandbox, jwt).rest.apps.getAuthenticated();
    return { status, message: "" };
  } catch (error) {
    const e = error as { status: number; response?: { data?: { message?: string } } };
    return { status: e.status, message: e.response?.data?.message ?? "" };
  }
}

describe("app JWTs", () => {
  beforeAll(async () => {
    sandbox = await createSandbox({ secondaryLimits: false });
    const created = sandbox.createApp({ slug: "jwt-app" });
    if (!created.privateKey) throw new Error("the sandbox made no key");
    appId = created.app.id;
    privateKey = created.privateKey;
  });
  afterAll(() => sandbox.stop());

  it("takes a JWT signed now by the machine's clock even after the simulated clock jumped ahead", async () => {
    await sandbox.clock.advance(3 * 60 * MINUTE);
    expect((await getApp(await appJwt(appId, privateKey, Date.now()))).status).toBe(200);
    expect((await getApp(await appJwt(appId, privateKey, sandbox.clock.now()))).status).toBe(200);
  });

  it("refuses an exp more than ten minutes ahead of both clocks with GitHub's message", async () => {
    const ahead = Math.max(Date.now(), sandbox.clock.now()) + 20 * MINUTE;
    const answer = await getApp(await appJwt(appId, privateKey, ahead));
    expect(answer.status).toBe(401);
    expect(answer.message).toBe("'Expiration time' claim ('exp') is too far in the future");
  });

  it("refuses a JWT that expired by both clocks", async () => {
    const before = Math.min(Date.now(), sandbox.clock.now()) - 30 * MINUTE;
    const answer = await getApp(await appJwt(appId, privateKey, before));
    expect(answer.status).toBe(401);
    expect(answer.message).toMatch(/'Expiration time' claim \('exp'\) must be a numeric value/);
  });

  it("refuses a JWT signed with another key", async () => {
    const { privateKey: otherKey } = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    });
    const answer = await getApp(await appJwt(appId, otherKey, Date.now()));
    expect(answer.status).toBe(401);
    expect(answer.message).toBe("A JSON web token could not be decoded");
  });
});
