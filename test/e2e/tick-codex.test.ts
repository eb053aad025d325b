import { bubblewrapVariants } from "../../packages/harness/test/bubblewrap.ts";
import { codexTickScenario } from "../support/codex-tick-scenario.ts";

const [without] = bubblewrapVariants();
if (!without) throw new Error("no bubblewrap variants");
codexTickScenario(without);
