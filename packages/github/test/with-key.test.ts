import { describe, expect, it } from "vitest";
import { GITHUB_BODY_LIMIT, readKey, withKey } from "../src/index.ts";

describe("withKey / readKey", () => {
  it.each([
    "tick:11111111-1111-4111-8111-111111111111",
    "gate G2 opened",
    "weird --> key <!-- with markup",
    "ünïcödé/✓",
  ])("round-trips the key %j", (key) => {
    const body = withKey("Hello", key);
    expect(readKey(body)).toBe(key);
    expect(body.startsWith("Hello\n<!-- loopx:key=")).toBe(true);
  });

  it("replaces an existing key instead of adding a second", () => {
    const body = withKey(withKey("Hello", "a"), "b");
    expect(readKey(body)).toBe("b");
    expect(body.match(/loopx:key=/g)).toHaveLength(1);
  });

  it("keeps the marker even when the body is at the size limit", () => {
    const body = withKey("line\n".repeat(20_000), "status");
    expect(body.length).toBeLessThanOrEqual(GITHUB_BODY_LIMIT);
    expect(readKey(body)).toBe("status");
  });

  it("reads nothing from a body without a marker, or with a broken one", () => {
    expect(readKey("plain comment")).toBeNull();
    expect(readKey("<!-- loopx:key= -->")).toBeNull();
    expect(readKey("<!-- loopx:key=%E0%A4%A -->")).toBeNull();
  });
});
