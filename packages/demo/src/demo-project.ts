/**
 * The demo repository: a tiny real JavaScript project with a real bug (its total skips the
 * first cart line), a real `node --test` suite, a lint check, CI (whose check main requires:
 * start-stack.ts), LoopX's config and a code owner. Everything here is what a newcomer would
 * find in a small repository of their own.
 */
import type { Harness } from "./demo-options.ts";
import { documentedCallers } from "./loopx-release.ts";

export const DEMO_REPO = { owner: "acme", name: "cart", fullName: "acme/cart" } as const;
/** The goal's owner (maintain, CODEOWNERS): approves and merges. */
export const OWNER = "alice";
/** A writer who reviews the pull request. */
export const REVIEWER = "bob";

/** What the sandbox's CI runs on each PR head: the tests, then the lint check (as ci.yml). */
export const CI_COMMAND = "node --test && node scripts/lint.mjs";
/** The check CI reports and main requires (a ruleset, as a repository with CI has). */
export const REQUIRED_CHECK = "test";
/** What each slice must pass before it counts as progress. */
export const VALIDATION_COMMAND = "node --test";

export const ISSUE = {
  title: "total() ignores the first line of the cart",
  body: [
    "`total([{ price: 250, qty: 2 }])` returns `0`; it should be `500`.",
    "A cart with two lines only counts the second one.",
    "",
    "Fix `total()` in `src/cart.js` and cover it with tests.",
  ].join("\n"),
};
/**
 * `--plan`'s issue: an objective and nothing else (no todo). The agent's first slice plans it
 * into the three todos of PLANNED; releasing needs RELEASE_SCOPE, which the plan asks for.
 */
export const OBJECTIVE = {
  title: "Get the cart ready for its first release",
  body: [
    "`total()` ignores the first line of a cart, and the README does not say how to use it.",
    "Once both are right, release version 1.0.0 with a changelog.",
  ].join("\n"),
};
export const PLANNED = {
  fix: "Make total() count every cart line, with tests",
  docs: "Document total() in the README",
  release: "Release version 1.0.0 with a changelog",
} as const;
/** What releasing needs: the plan asks for a gate on it, so the release waits for the owner. */
export const RELEASE_SCOPE = "release";

/** The todo the owner gives the goal when it starts. */
export const FIRST_TODO = "Fix total() so it counts every line, with tests";
export const REVIEW_REQUEST =
  "Please write total() with reduce() instead of an index loop, and cover a line with quantity 0.";

/** The reviewer's line comment: on the loop of src/cart.js as the repair left it. */
export const REVIEW_LINE = {
  path: "src/cart.js",
  line: 4,
  body: "An index loop is how the first line got skipped; reduce() cannot skip one.",
};

const CART_WITH_BUG = `/** The cart's total in cents: each line's unit price times its quantity, summed. */
export function total(lines) {
  let sum = 0;
  for (let i = 1; i < lines.length; i++) sum += lines[i].price * lines[i].qty;
  return sum;
}
`;

const FIRST_TESTS = `import assert from "node:assert/strict";
import { test } from "node:test";
import { total } from "../src/cart.js";

test("an empty cart costs nothing", () => {
  assert.equal(total([]), 0);
});
`;

const LINT = `// The project's lint check: no debugging output left in src/.
import { readdirSync, readFileSync } from "node:fs";

let problems = 0;
for (const file of readdirSync("src")) {
  readFileSync(\`src/\${file}\`, "utf8")
    .split("\\n")
    .forEach((line, i) => {
      if (line.includes("console.log(")) {
        console.log(\`src/\${file}:\${i + 1}: console.log left in src/ (remove debugging output)\`);
        problems++;
      }
    });
}
if (problems > 0) process.exit(1);
console.log("lint: clean");
`;

const CI_WORKFLOW = `name: CI
on: [pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v6
      - run: node --test
      - run: node scripts/lint.mjs
`;

function loopxConfig(harness: Harness): string {
  const lines =
    harness === "shell"
      ? ["harness:", "  default: shell"]
      : ["harness:", "  default: claude-code", "  allowedTools: [Write, Bash]"];
  // What counts as green is the check main requires (REQUIRED_CHECK, a ruleset): no `checks:`.
  return [...lines, `validationCommand: ${VALIDATION_COMMAND}`, ""].join("\n");
}

/** The repository's first commit. */
export function demoFiles(harness: Harness): Record<string, string> {
  return {
    "README.md":
      "# cart\n\nPrices a shopping cart. `npm test` runs the suite, `npm run lint` the lint check.\n",
    "package.json": `${JSON.stringify(
      {
        name: "cart",
        private: true,
        type: "module",
        scripts: { test: "node --test", lint: "node scripts/lint.mjs" },
      },
      null,
      2,
    )}\n`,
    "src/cart.js": CART_WITH_BUG,
    "test/cart.test.js": FIRST_TESTS,
    "scripts/lint.mjs": LINT,
    ".github/CODEOWNERS": `* @${OWNER}\n`,
    ".github/loopx.yml": loopxConfig(harness),
    ".github/workflows/ci.yml": CI_WORKFLOW,
    // The tick and wake callers exactly as docs/workflows.md shows them: they call LoopX's
    // reusable workflows from loopx/loopx@v1, which the sandbox serves.
    ...documentedCallers(),
  };
}
