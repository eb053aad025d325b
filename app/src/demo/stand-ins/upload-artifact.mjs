// Sandbox stand-in for actions/upload-artifact: copies the listed files into the run's
// artifact directory ($LOOPX_SANDBOX_ARTIFACTS/<name>/), like the artifact service would.
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { basename, join } from "node:path";

const name = process.env.INPUT_NAME ?? "artifact";
const paths = (process.env.INPUT_PATH ?? "")
  .split("\n")
  .map((p) => p.trim())
  .filter(Boolean);
const dir = join(process.env.LOOPX_SANDBOX_ARTIFACTS ?? "", name);
mkdirSync(dir, { recursive: true });
let found = 0;
for (const p of paths) {
  if (!existsSync(p)) continue;
  copyFileSync(p, join(dir, basename(p)));
  found++;
}
if (found === 0) {
  const mode = process.env["INPUT_IF-NO-FILES-FOUND"] ?? "warn";
  console.log(
    `::${mode === "error" ? "error" : "warning"}::No files were found with the provided path: ${paths.join(", ")}`,
  );
  if (mode === "error") process.exit(1);
}
