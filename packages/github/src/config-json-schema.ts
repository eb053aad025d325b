import { z } from "zod";
import { LoopxConfig } from "./loopx-config.ts";

/** Where the generated schema is committed, relative to this package. */
export const CONFIG_SCHEMA_FILE = "loopx-config.schema.json";

/**
 * The JSON Schema editors use for `.github/loopx.yml`, as the exact text committed. It
 * describes the input side (defaulted fields are optional), which is what people write.
 */
export function configJsonSchema(): string {
  const schema = z.toJSONSchema(LoopxConfig, { io: "input", target: "draft-2020-12" });
  return `${JSON.stringify({ ...schema, title: "LoopX configuration (.github/loopx.yml)" }, null, 2)}\n`;
}
