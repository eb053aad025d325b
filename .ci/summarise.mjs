// Turns vitest's JSON report into the one line CI reads: "N passed, N failed[, N skipped]".
// A run that stopped before the tests (lint, typecheck) or ran none counts as failed.
// Further arguments `name=exitCode` (e.g. `demo=0 plan-demo=0`) are checks run outside
// vitest: each counts as one passed or one failed, and a failed one fails the run.
import { existsSync, readFileSync } from "node:fs";

const [reportPath, statusText, ...extraArgs] = process.argv.slice(2);
const status = Number(statusText ?? "1");
const extra = extraArgs.map((arg) => {
  const [name, code] = arg.split("=");
  return { name, ok: code === "0" };
});
for (const c of extra.filter((c) => !c.ok)) console.log(`${c.name} failed (see its output above)`);
const extraPassed = extra.filter((c) => c.ok).length;
const extraFailed = extra.length - extraPassed;

if (!reportPath || !existsSync(reportPath)) {
  console.log("no test report: a step before the tests failed (see above)");
  console.log(`${extraPassed} passed, ${1 + extraFailed} failed`);
  process.exit(status === 0 ? 1 : status);
}

const report = JSON.parse(readFileSync(reportPath, "utf8"));
const passed = (report.numPassedTests ?? 0) + extraPassed;
// A file that failed to load (syntax error, failing hook) has no test results of its own.
const brokenFiles = (report.testResults ?? []).filter(
  (f) => f.status === "failed" && (f.assertionResults ?? []).length === 0,
).length;
const failed = (report.numFailedTests ?? 0) + brokenFiles + extraFailed;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);

// Name what failed, so a red CI says where to look without the whole log.
for (const file of report.testResults ?? []) {
  const failedTests = (file.assertionResults ?? []).filter((t) => t.status === "failed");
  if (file.status === "failed" && failedTests.length === 0) {
    console.log(`FAILED ${file.name}: ${firstLine(file.message)}`);
  }
  for (const t of failedTests) {
    console.log(
      `FAILED ${file.name} > ${t.fullName ?? t.title}: ${firstLine(t.failureMessages?.[0])}`,
    );
  }
}

const ranNone = (report.numPassedTests ?? 0) + (report.numFailedTests ?? 0) + brokenFiles === 0;
if (ranNone) console.log("the test run executed no test");
console.log(
  `${passed} passed, ${ranNone ? 1 + extraFailed : failed} failed${skipped ? `, ${skipped} skipped` : ""}`,
);
process.exit(status !== 0 ? status : failed > 0 || ranNone ? 1 : 0);

function firstLine(text) {
  return (
    String(text ?? "no message")
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.trim()
      .slice(0, 300) ?? "no message"
  );
}
