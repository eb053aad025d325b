import { rm } from "node:fs/promises";
import { resolve } from "node:path";
import { openStore } from "@loopx/store";
import { runWalkthrough } from "./walkthrough.ts";

const DATA_DIR = resolve(".loopx", "walkthrough-db");

/** Opens the embedded store under .loopx/ (kept between runs; --fresh resets it) and walks one goal. */
export async function main(args: string[]): Promise<number> {
  const unknown = args.filter((a) => a !== "--fresh");
  if (unknown.length > 0) {
    console.error(`unknown option ${unknown.join(" ")}; the walkthrough takes only --fresh`);
    return 2;
  }
  if (args.includes("--fresh")) await rm(DATA_DIR, { recursive: true, force: true });
  const store = await openStore({ dataDir: DATA_DIR });
  try {
    await store.migrate();
    console.log(`LoopX kernel walkthrough — embedded PGlite at ${DATA_DIR}\n`);
    await runWalkthrough(store, (line) => console.log(line));
    return 0;
  } finally {
    await store.close();
  }
}
