#!/usr/bin/env node
// The installed `loopx` bin: loads the TypeScript entry through tsx (no build step).
import { register } from "tsx/esm/api";

register();
await import("./loopx.ts");
