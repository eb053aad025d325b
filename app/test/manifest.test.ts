import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { HANDLERS } from "../src/inbox/process-delivery.ts";

const Manifest = z.object({
  name: z.string(),
  hook_attributes: z.object({ url: z.string() }),
  default_permissions: z.record(z.string(), z.enum(["read", "write"])),
  default_events: z.array(z.string()),
});

const manifest = Manifest.parse(
  parse(readFileSync(new URL("../app.yml", import.meta.url), "utf8")),
);
/** GitHub sends these to every app; a manifest cannot subscribe to them. */
const ALWAYS_SENT = new Set(["installation", "installation_repositories"]);

describe("app.yml (the GitHub App manifest)", () => {
  it("never asks for the workflows permission", () => {
    expect(Object.keys(manifest.default_permissions)).not.toContain("workflows");
  });

  it("asks for exactly the permissions LoopX uses", () => {
    expect(manifest.default_permissions).toEqual({
      issues: "write",
      pull_requests: "write",
      contents: "write",
      // LoopX writes its own check runs (`LoopX / gates`).
      checks: "write",
      statuses: "read",
      actions: "write",
      metadata: "read",
    });
  });

  it("subscribes to every event a handler exists for", () => {
    const handled = new Set(Object.keys(HANDLERS).map((key) => key.split(".")[0] ?? key));
    const missing = [...handled].filter(
      (event) => !ALWAYS_SENT.has(event) && !manifest.default_events.includes(event),
    );
    expect(missing).toEqual([]);
  });

  it("subscribes to the events the design relies on", () => {
    for (const event of [
      "issues",
      "issue_comment",
      "pull_request",
      "pull_request_review",
      "pull_request_review_comment",
      "pull_request_review_thread",
      "check_suite",
      "check_run",
      "status",
      "workflow_run",
      "sub_issues",
      "repository",
    ]) {
      expect(manifest.default_events).toContain(event);
    }
  });
});
