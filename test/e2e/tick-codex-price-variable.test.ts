import { bubblewrapVariants } from "../../packages/harness/test/bubblewrap.ts";
import { codexTickScenario } from "../support/codex-tick-scenario.ts";

const [without] = bubblewrapVariants();
if (!without) throw new Error("no bubblewrap variants");
// A gateway's own model id, which the shipped table cannot know: the repository prices it.
codexTickScenario(without, {
  from: "variable",
  model: "acme-gateway-coder",
  prices: { inputPerMTok: 4, cachedInputPerMTok: 1, outputPerMTok: 16 },
});
