// Turns vitest's JSON report into the one line CI reads: "N passed, N failed[, N skipped]".
// A run that stopped before the tests (lint, typecheck) or ran none counts as failed.
import { existsSync, readFileSync } from "node:fs";

const [reportPath, statusText] = process.argv.slice(2);
const status = Number(statusText ?? "1");

if (!reportPath || !existsSync(reportPath)) {
  console.log("no test report: a step before the tests failed (see above)");
  console.log("0 passed, 1 failed");
  process.exit(status === 0 ? 1 : status);
}

const report = JSON.parse(readFileSync(reportPath, "utf8"));
const passed = report.numPassedTests ?? 0;
// A file that failed to load (syntax error, failing hook) has no test results of its own.
const brokenFiles = (report.testResults ?? []).filter(
  (f) => f.status === "failed" && (f.assertionResults ?? []).length === 0,
).length;
const failed = (report.numFailedTests ?? 0) + brokenFiles;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);

const ranNone = passed + failed === 0;
if (ranNone) console.log("the test run executed no test");
console.log(
  `${passed} passed, ${ranNone ? 1 : failed} failed${skipped ? `, ${skipped} skipped` : ""}`,
);
process.exit(status !== 0 ? status : failed > 0 || ranNone ? 1 : 0);
