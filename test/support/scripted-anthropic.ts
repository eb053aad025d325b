// The scripted Anthropic Messages API ships with the demo (app/src/demo); tests use the same one.
export * from "../../app/src/demo/scripted-model.ts";
