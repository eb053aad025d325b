/**
 * Workflow syntax, "cache-mode"; changelog 2026-09-10 "Control GitHub Actions cache access with
 * cache-mode": the job's mode, else the workflow's, else the event's default; a called
 * workflow never gets more cache access than its caller granted.
 */
import { describe, expect, it } from "vitest";
import { cacheAllows, jobCacheMode } from "../src/runner/runtime-tokens.ts";

describe("cache-mode", () => {
  it("defaults to read for pull_request_target and to write for trusted events", () => {
    expect(jobCacheMode(undefined, null, "pull_request_target")).toBe("read");
    expect(jobCacheMode(undefined, null, "push")).toBe("write");
    expect(jobCacheMode("none", null, "push")).toBe("none");
  });

  it("a called workflow's mode is narrowed by its caller's, never widened", () => {
    expect(jobCacheMode("write", "read", "push")).toBe("read");
    expect(jobCacheMode("write", "write-only", "push")).toBe("write-only");
    expect(jobCacheMode("read", "write-only", "push")).toBe("none");
    expect(jobCacheMode(undefined, "read", "push")).toBe("read");
  });

  it("each mode allows exactly its restores and saves", () => {
    const table = (["write", "read", "write-only", "none"] as const).map((m) => [
      m,
      cacheAllows(m, "restore"),
      cacheAllows(m, "save"),
    ]);
    expect(table).toEqual([
      ["write", true, true],
      ["read", true, false],
      ["write-only", false, true],
      ["none", false, false],
    ]);
  });
});
