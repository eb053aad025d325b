import { createRequire } from "node:module";
import { dbOf, tables } from "@loopx/store/testing";
import { Webhooks } from "@octokit/webhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Harness, startHarness } from "../support/app-harness.ts";
import { expectWarning } from "../support/expected-warnings.ts";

const Examples = z.array(
  z.object({ name: z.string(), examples: z.array(z.record(z.string(), z.unknown())) }),
);
const examples = Examples.parse(createRequire(import.meta.url)("@octokit/webhooks-examples"));

/** The events app.yml subscribes to, plus the two GitHub always sends. */
const SUBSCRIBED = [
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
  "installation",
  "installation_repositories",
];

/** What a handler bug looks like, as opposed to GitHub refusing an example's made-up ids. */
const CRASH =
  /TypeError|ReferenceError|RangeError|SyntaxError|Cannot read propert|is not a function|undefined/;

/**
 * Scenario: every `@octokit/webhooks-examples` payload of a subscribed event, signed with the
 * app's secret and posted to its webhook endpoint: each is answered 2xx, and processing it
 * never crashes a handler (the examples' installations do not exist here, so GitHub calls
 * fail and are retried; that is fine).
 */
describe("e2e: every webhooks example for the subscribed events", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  const cases = examples
    .filter((e) => SUBSCRIBED.includes(e.name))
    .flatMap((e) => e.examples.map((payload, i) => ({ event: e.name, i, payload })));

  it(`posts ${cases.length} examples; every one is answered 2xx and none crashes a handler`, async () => {
    // Some of GitHub's examples were captured from repository webhooks and carry no
    // `installation`, which every delivery to an App has: the App ignores each of those as
    // malformed and says so. Any other reason an example fails to parse is a schema bug.
    expectWarning(
      /^delivery example-\S+ \(\S+\) is malformed: \[\s*\{[^\]]*"path": \[\s*"installation"\s*\]/,
    );
    expect(cases.length).toBeGreaterThan(100);
    const signer = new Webhooks({ secret: h.webhookSecret });
    const answers: { id: string; status: number }[] = [];
    for (const { event, i, payload } of cases) {
      const body = JSON.stringify(payload);
      const id = `example-${event}-${i}`;
      const response = await fetch(`${h.appUrl}/api/github/webhooks`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-github-event": event,
          "x-github-delivery": id,
          "x-hub-signature-256": await signer.sign(body),
        },
        body,
      });
      answers.push({ id, status: response.status });
    }
    expect(answers.filter((a) => a.status < 200 || a.status >= 300)).toEqual([]);

    await h.settle();
    const rows = await dbOf(h.store).select().from(tables.inbox);
    const mine = rows.filter((r) => r.deliveryId.startsWith("example-"));
    expect(mine).toHaveLength(cases.length);
    const crashed = mine
      .filter((r) => r.error !== null && CRASH.test(r.error))
      .map((r) => `${r.deliveryId}: ${r.error}`);
    expect(crashed).toEqual([]);
    expect((await fetch(`${h.appUrl}/healthz`)).status).toBe(200);
  });
});
