// Regenerates the committed JSON Schema for .github/loopx.yml from the zod schema.
// Run: npx tsx packages/github/scripts/config-json-schema.ts
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { CONFIG_SCHEMA_FILE, configJsonSchema } from "../src/config-json-schema.ts";

const target = fileURLToPath(new URL(`../${CONFIG_SCHEMA_FILE}`, import.meta.url));
writeFileSync(target, configJsonSchema());
console.log(`wrote ${target}`);
