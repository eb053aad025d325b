/**
 * `--plan`'s agent: the first slice plans the objective into three todos and asks for the
 * authority the release needs (a gate on `release`); each later slice does one todo, picked
 * by its title in the brief. Planning changes no file: its result is the plan.
 */
import { heredoc, REDUCED_CART, type Slice, TESTS } from "./agent-script.ts";
import { PLANNED, RELEASE_SCOPE } from "./demo-project.ts";

const USAGE_SECTION = `
## Usage

\`\`\`js
import { total } from "./src/cart.js";

total([{ price: 250, qty: 2 }, { price: 100, qty: 1 }]); // 600 (cents)
\`\`\`

Each line is a unit \`price\` in cents and a \`qty\`; \`total()\` sums price times quantity.
`;

const CHANGELOG = `# Changelog

## 1.0.0

- \`total()\` counts every line of the cart (it used to skip the first one).
- The README shows how to use \`total()\`.
`;

const done = (what: string, summary: string) => ({
  outcome: "completed",
  handoff: {
    done: what,
    next: "Wait for CI and the owner's review of the pull request.",
    questions: [],
  },
  evidence: [{ kind: "test", summary }],
  continuation: { kind: "no_followup", reason: "the change is on the branch" },
});

export const PLAN_SLICES: Slice[] = [
  {
    marker: "(plan, ",
    say: "Reading the objective and the repository: three steps, and the release needs the owner's say.",
    edit: "cat README.md package.json src/cart.js",
    claim: {
      outcome: "completed",
      handoff: {
        done: "Planned the objective: fix total(), document it, then release 1.0.0.",
        next: "Fix total() first; the release waits for the owner's approval.",
        questions: [],
      },
      evidence: [
        { kind: "note", summary: "the bug, the missing docs and the release are the objective" },
      ],
      continuation: { kind: "goal_active" },
      proposedTodos: [
        { title: PLANNED.fix, detail: "the loop in src/cart.js starts at index 1" },
        { title: PLANNED.docs, detail: "a Usage section with an example" },
        {
          title: PLANNED.release,
          detail: "bump package.json to 1.0.0 and write CHANGELOG.md",
          requiredScopes: [RELEASE_SCOPE],
        },
      ],
      gateRequests: [
        {
          question:
            "May I release version 1.0.0 (bump package.json, write CHANGELOG.md)? The release todo waits for your approval; the others go on.",
          scopes: [RELEASE_SCOPE],
        },
      ],
    },
  },
  {
    marker: PLANNED.fix,
    say: "The loop in total() starts at index 1. Rewriting it with reduce() and adding tests.",
    edit: `${heredoc("src/cart.js", REDUCED_CART)}\n${heredoc("test/cart.test.js", TESTS)}\nnode --test && node scripts/lint.mjs`,
    claim: done(
      "total() counts every line (reduce()); tests for one and two lines.",
      "node --test: 3 tests pass; lint clean",
    ),
  },
  {
    marker: PLANNED.docs,
    say: "Adding a Usage section to the README.",
    edit: `cat >> README.md <<'LOOPX_EOF'\n${USAGE_SECTION}LOOPX_EOF\nnode --test`,
    claim: done("The README has a Usage section showing total().", "node --test passes"),
  },
  {
    marker: PLANNED.release,
    say: "The owner approved the release: bumping the version and writing the changelog.",
    edit: `sed -i 's/^  "name": "cart",$/  "name": "cart",\\n  "version": "1.0.0",/' package.json\n${heredoc("CHANGELOG.md", CHANGELOG)}\nnode --test && grep -q '"version": "1.0.0"' package.json`,
    claim: done(
      "package.json is at 1.0.0; CHANGELOG.md lists the release.",
      "node --test passes; package.json says 1.0.0",
    ),
  },
];
