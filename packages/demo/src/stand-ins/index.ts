/**
 * GitHub's own actions that the sandbox does not host, by the exact refs LoopX's workflows use,
 * mapped to the stand-ins beside this file (`sandbox.runner.actions`). Bumping a ref in a
 * workflow means bumping it here: test/install/actions-current.test.ts holds them together.
 */
import { resolve } from "node:path";

const standIn = (name: string) => resolve(import.meta.dirname, `${name}.mjs`);

export const GITHUB_ACTION_STAND_INS: Readonly<Record<string, string>> = {
  "actions/checkout@v6": standIn("checkout"),
  "actions/upload-artifact@v6": standIn("upload-artifact"),
  "actions/download-artifact@v7": standIn("download-artifact"),
};
