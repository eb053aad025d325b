/**
 * Extracts, from GitHub's REST OpenAPI description, the response schemas of exactly the
 * operations the sandbox serves (and the webhook schemas not in @octokit/webhooks-schemas),
 * with $refs resolved, into test/fixtures/openapi-subset.json.
 *
 *   npm install --prefix /tmp/openapi @octokit/openapi@23.0.2
 *   node_modules/.bin/tsx packages/sandbox/scripts/extract-openapi.ts /tmp/openapi
 *
 * @octokit/openapi is ~385 MB: it is never a dependency of this repository.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createSandbox } from "../src/index.ts";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const isObject = (v: Json | undefined): v is { [key: string]: Json } =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const prefix = process.argv[2] ?? "/tmp/openapi";
const specPath = join(prefix, "node_modules/@octokit/openapi/generated/api.github.com.json");
const spec: Json = JSON.parse(readFileSync(specPath, "utf8"));
if (!isObject(spec)) throw new Error("unexpected spec");
const version = JSON.parse(
  readFileSync(join(prefix, "node_modules/@octokit/openapi/package.json"), "utf8"),
).version;

/** Collects the component schemas reachable from a node into `defs`, rewriting refs to `#/$defs/x`. */
const defs: Record<string, Json> = {};
function lookup(ref: string): Json {
  let node: Json = spec;
  for (const part of ref.replace(/^#\//, "").split("/")) {
    if (!isObject(node)) throw new Error(`bad ref ${ref}`);
    node = node[part] ?? null;
  }
  return node;
}
function collect(node: Json): Json {
  if (Array.isArray(node)) return node.map(collect);
  if (!isObject(node)) return node;
  const ref = node.$ref;
  if (typeof ref === "string") {
    if (ref.startsWith("#/components/schemas/")) {
      const name = ref.slice("#/components/schemas/".length);
      if (!(name in defs)) {
        defs[name] = true;
        defs[name] = collect(lookup(ref));
      }
      return { $ref: `#/$defs/${name}` };
    }
    return collect(lookup(ref));
  }
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(node)) {
    // OpenAPI 3.0 `nullable` → JSON Schema.
    if (k === "nullable") continue;
    out[k] = collect(v);
  }
  if (node.nullable === true) return { anyOf: [out, { type: "null" }] };
  return out;
}

const sandbox = await createSandbox();
const served = new Map(sandbox.routes.map((r) => [r.operationId, `${r.method} ${r.template}`]));
await sandbox.stop();

const operations: Record<
  string,
  { method: string; path: string; responses: Record<string, Json> }
> = {};
const paths = spec.paths;
if (!isObject(paths)) throw new Error("no paths");
for (const [path, item] of Object.entries(paths)) {
  if (!isObject(item)) continue;
  for (const [method, op] of Object.entries(item)) {
    if (!isObject(op) || typeof op.operationId !== "string" || !served.has(op.operationId))
      continue;
    const responses: Record<string, Json> = {};
    for (const [status, response] of Object.entries(isObject(op.responses) ? op.responses : {})) {
      const resolved =
        isObject(response) && typeof response.$ref === "string" ? lookup(response.$ref) : response;
      const content =
        isObject(resolved) && isObject(resolved.content)
          ? resolved.content["application/json"]
          : undefined;
      responses[status] =
        isObject(content) && content.schema !== undefined ? collect(content.schema) : null;
    }
    operations[op.operationId] = { method: method.toUpperCase(), path, responses };
  }
}

const webhooks: Record<string, Json> = {};
const xWebhooks = spec["x-webhooks"];
for (const name of [
  "sub-issues-sub-issue-added",
  "sub-issues-sub-issue-removed",
  "sub-issues-parent-issue-added",
  "sub-issues-parent-issue-removed",
]) {
  const hook = isObject(xWebhooks) ? xWebhooks[name] : undefined;
  const post = isObject(hook) ? hook.post : undefined;
  const body = isObject(post) ? post.requestBody : undefined;
  const content =
    isObject(body) && isObject(body.content) ? body.content["application/json"] : undefined;
  if (isObject(content)) webhooks[name] = collect(content.schema ?? null);
}

const missing = [...served.keys()].filter((id) => !(id in operations));
const out = {
  source: `@octokit/openapi@${version} api.github.com.json`,
  operations,
  webhooks,
  $defs: defs,
};
const target = join(
  dirname(fileURLToPath(import.meta.url)),
  "../test/fixtures/openapi-subset.json",
);
writeFileSync(target, `${JSON.stringify(out, null, 1)}\n`);
console.log(
  `wrote ${Object.keys(operations).length} operations, ${Object.keys(defs).length} schemas to ${target}`,
);
if (missing.length > 0) console.warn(`served but absent from the spec: ${missing.join(", ")}`);
