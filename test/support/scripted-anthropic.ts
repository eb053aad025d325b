// The scripted Anthropic Messages API ships with the demo (packages/demo); tests use the same one.
export * from "../../packages/demo/src/scripted-model.ts";
