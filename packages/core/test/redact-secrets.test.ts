import { execFileSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { redactFields, redactSecrets, WITHHELD } from "../src/redact-secrets.ts";

/** What a shell would print: the real tools, fed the bytes on stdin. */
function sh(command: string, input: string): string {
  return execFileSync("sh", ["-c", command], { input, encoding: "utf8" });
}

const alnum = (n: number) =>
  randomBytes(n * 2)
    .toString("base64")
    .replace(/[^A-Za-z0-9]/g, "")
    .slice(0, n);

/** One of each: a registered value (no known shape) and the token shapes of real issuers. */
const REGISTERED = `svc-${alnum(24)}`;
const SHAPES = {
  installation: `ghs_${alnum(36)}`,
  classic: `ghp_${alnum(36)}`,
  fineGrained: `github_pat_11${alnum(20)}_${alnum(59)}`,
  anthropic: `sk-ant-api03-${alnum(93)}AA`,
  anthropicOauth: `sk-ant-oat01-${alnum(93)}AA`,
  openaiProject: `sk-proj-${alnum(120)}`,
  openaiLegacy: `sk-${alnum(48)}`,
  runtimeJwt: `eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJydW50aW1lIn0.${alnum(43)}`,
};
const SECRETS: [string, string][] = [["registered", REGISTERED], ...Object.entries(SHAPES)];

/** How an agent dresses a value to slip it past a plain substring search. */
const DISGUISES: [string, (v: string) => string][] = [
  ["plain", (v) => `the value is ${v} ok`],
  ["base64 wrapped at 76", (v) => sh("base64", v.repeat(2))],
  ["base64 -w0", (v) => sh("base64 -w0", v)],
  ["base64 -w0 after 1 byte", (v) => sh("base64 -w0", `x${v}`)],
  ["base64 -w0 after 2 bytes", (v) => sh("base64 -w0", `xy${v}`)],
  ["base64 -w0 glued to a word", (v) => `token${sh("base64 -w0", `:${v}`)}`],
  ["base64url unpadded", (v) => Buffer.from(`=${v}`).toString("base64url")],
  ["xxd -p", (v) => sh("xxd -p", v)],
  ["od -An -tx1", (v) => sh("od -An -tx1", v)],
  ["percent-encoded", (v) => [...v].map((c) => `%${c.charCodeAt(0).toString(16)}`).join("")],
  [
    "JSON \\u escapes",
    (v) => [...v].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join(""),
  ],
  ["split by a newline", (v) => `${v.slice(0, 7)}\n${v.slice(7)}`],
];

describe("redactSecrets: a credential in any encoding withholds the whole field", () => {
  for (const [name, secret] of SECRETS) {
    it.each(DISGUISES)(`${name}, %s`, (_, disguise) => {
      const field = `Done.\n${disguise(secret)}\nNext: more`;
      expect(redactSecrets(field, [REGISTERED])).toBe(WITHHELD);
    });
  }

  it("leaves words, SHAs, UUIDs and ordinary base64 alone", () => {
    const fine = [
      "a risk-free change to the task-list and sk-learn",
      "merged 4b825dc642cb6eb9a060e54bf8d69288fbee4904 into main",
      `session ${randomUUID()} and ${randomUUID()}`,
      sh("base64", "hello world, this is just prose that got encoded"),
      sh("xxd -p", "nothing secret in these bytes at all"),
      "ghs_short and sk-ant-nope",
    ];
    for (const text of fine) expect(redactSecrets(text, [REGISTERED])).toBe(text);
  });

  it("names every withheld field, leaving the others as they were", () => {
    const withheld: string[] = [];
    const out = redactFields(
      {
        handoff: { done: "fine", questions: ["ok", `leak ${sh("base64 -w0", SHAPES.classic)}`] },
        evidence: [{ summary: `key ${REGISTERED}` }],
        cost: { usd: 1 },
      },
      [REGISTERED],
      withheld,
    );
    expect(withheld).toEqual(["handoff.questions.1", "evidence.0.summary"]);
    expect(out).toEqual({
      handoff: { done: "fine", questions: ["ok", WITHHELD] },
      evidence: [{ summary: WITHHELD }],
      cost: { usd: 1 },
    });
  });
});
