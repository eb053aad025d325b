import { defineConfig } from "vitest/config";

// CI asks for a JSON report to print its "N passed, N failed" line (.ci/summarise.mjs).
const jsonReport = process.env.VITEST_JSON_REPORT;

export default defineConfig({
  test: {
    reporters: jsonReport ? ["default", "json"] : ["default"],
    ...(jsonReport ? { outputFile: { json: jsonReport } } : {}),
    include: [
      "packages/*/src/**/*.test.ts",
      "packages/*/test/**/*.test.ts",
      "app/**/*.test.ts",
      "action/**/*.test.ts",
      "test/**/*.test.ts",
    ],
    exclude: ["**/node_modules/**", "**/dist/**"],
    // Starts a throwaway real PostgreSQL when its binaries exist (see the file).
    globalSetup: ["test/support/global-setup.ts"],
    // A call to an endpoint the sandbox does not implement fails the test that made it, and
    // so does a warning the App logs that the test did not declare.
    setupFiles: ["test/support/strict-sandbox.ts", "test/support/expected-warnings.ts"],
    // PGlite costs ~2 s and ~800 MB per instance: workers share one each, so keep them few.
    maxWorkers: 2,
    // End-to-end scenarios run real processes (git, the CLIs) on a 2-core machine.
    testTimeout: 90_000,
    hookTimeout: 60_000,
  },
});
