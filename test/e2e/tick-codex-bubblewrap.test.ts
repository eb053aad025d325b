import { bubblewrapVariants } from "../../packages/harness/test/bubblewrap.ts";
import { codexTickScenario } from "../support/codex-tick-scenario.ts";

const [, withIt] = bubblewrapVariants();
if (!withIt) throw new Error("no bubblewrap variants");
codexTickScenario(withIt);
