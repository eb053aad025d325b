// The action's entry. Do not add logic here; it belongs in runner.ts.
import { run } from "./runner.ts";

await run();
