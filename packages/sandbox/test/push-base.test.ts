/**
 * `sandbox.push` stands in for a clone that committed and pushed: a new branch starts at the
 * commit the change was made on, so what reached the default branch meanwhile stays out of it
 * (and a pull request merges the two, as on GitHub) instead of being overwritten by the push.
 */
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../src/index.ts";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createSandbox({ secondaryLimits: false });
  sandbox.createRepo("acme/base", { files: { "a.txt": "a\n", "b.txt": "b\n" } });
});
afterAll(async () => {
  await sandbox?.stop();
});

const git = (...args: string[]) =>
  execFileSync("git", ["--git-dir", sandbox.gitDir("acme/base"), ...args], {
    encoding: "utf8",
  }).trim();

describe("sandbox.push", () => {
  it("starts a new branch at its base, and refuses a base that is no commit", () => {
    const checkedOut = git("rev-parse", "main");
    // Someone else's change lands on main while the clone works.
    sandbox.push("acme/base", "main", { "b.txt": "b, changed on main\n" }, "alice", "main moves");
    const head = sandbox.push(
      "acme/base",
      "topic",
      { "a.txt": "a, changed\n" },
      "bob",
      "topic",
      checkedOut,
    );
    expect(git("rev-parse", `${head}^`)).toBe(checkedOut);
    expect(git("show", `${head}:b.txt`)).toBe("b");
    // Without a base a new branch starts at main's head, as before.
    const fresh = sandbox.push("acme/base", "other", { "c.txt": "c\n" }, "bob", "other");
    expect(git("show", `${fresh}:b.txt`)).toBe("b, changed on main");
    expect(() =>
      sandbox.push("acme/base", "bad", { "a.txt": "x\n" }, "bob", "bad", "0".repeat(40)),
    ).toThrow(/is not a commit of acme\/base/);
    expect(git("branch", "--list", "bad")).toBe("");
  });
});
