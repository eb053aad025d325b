// Sandbox stand-in for actions/upload-artifact@v6: the listed files, as one tar archive, through
// the Actions artifact service with the job's runtime token (ACTIONS_RESULTS_URL,
// ACTIONS_RUNTIME_TOKEN): CreateArtifact → PUT to the signed URL → FinalizeArtifact, the calls
// @actions/artifact makes. `overwrite: true` deletes an artifact of the same name first.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { basename, dirname } from "node:path";
import { call } from "./artifact-service.mjs";

const env = process.env;
const name = env.INPUT_NAME || "artifact";
const paths = (env.INPUT_PATH ?? "")
  .split("\n")
  .map((p) => p.trim())
  .filter(Boolean)
  .filter((p) => existsSync(p));
if (paths.length === 0) {
  const mode = env["INPUT_IF-NO-FILES-FOUND"] ?? "warn";
  console.log(
    `::${mode === "error" ? "error" : "warning"}::No files were found with the provided path: ${env.INPUT_PATH}`,
  );
  process.exit(mode === "error" ? 1 : 0);
}
if (env.INPUT_OVERWRITE === "true") await call("DeleteArtifact", { name });
const created = await call("CreateArtifact", { name, version: 4 });
if (created.status !== 200) {
  console.log(`::error::Failed to CreateArtifact: ${created.body.msg}`);
  process.exit(1);
}
// Each file under its own name at the archive's root, as upload-artifact flattens one directory.
const args = paths.flatMap((p) => ["-C", dirname(p), basename(p)]);
const tar = execFileSync("tar", ["-cf", "-", ...args]);
const put = await fetch(created.body.signed_upload_url, {
  method: "PUT",
  headers: { "x-ms-blob-type": "BlockBlob" },
  body: tar,
});
if (put.status !== 201) {
  console.log(`::error::Uploading artifact content failed: HTTP ${put.status}`);
  process.exit(1);
}
const done = await call("FinalizeArtifact", { name, size: String(tar.length) });
if (done.status !== 200) {
  console.log(`::error::Failed to FinalizeArtifact: ${done.body.msg}`);
  process.exit(1);
}
console.log(`Artifact ${name} has been successfully uploaded! Final size is ${tar.length} bytes.`);
