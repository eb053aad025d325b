import {
  createScript,
  isRecord,
  json,
  type RecordedRequest,
  type ScriptedModelOptions,
  type ScriptedServerOptions,
  type ScriptStep,
  sleep,
  sse,
  startScriptedServer,
  startStream,
  type TurnRequest,
  userTextOf,
  withinOutputCap,
} from "./scripted-http.ts";

export type OpenAIItem =
  | { type: "message"; text: string }
  | { type: "function_call"; name: string; arguments: Record<string, unknown> }
  /** A freeform tool call: codex 0.17x exposes its tools through the custom `exec` tool. */
  | { type: "custom_tool_call"; name: string; input: string };

export interface OpenAITurn {
  output: OpenAIItem[];
  /** Token counts reported for this turn (defaults: 10 in, 5 out). */
  usage?: { input_tokens?: number; output_tokens?: number; cached_tokens?: number };
  /** Send nothing at all for this long before answering (idle-timeout tests). */
  stallMs?: number;
}

export type OpenAITurnRequest = TurnRequest;
export type OpenAIScriptStep = ScriptStep<OpenAITurn>;
export type RecordedOpenAIRequest = RecordedRequest;

export interface ScriptedOpenAI {
  /** Base URL including /v1, for `model_providers.local.base_url`. */
  url: string;
  requests: RecordedOpenAIRequest[];
  turnsServed(): number;
  close(): Promise<void>;
}

export const message = (t: string): OpenAIItem => ({ type: "message", text: t });
export const functionCall = (name: string, args: Record<string, unknown>): OpenAIItem => ({
  type: "function_call",
  name,
  arguments: args,
});

export const customToolCall = (name: string, input: string): OpenAIItem => ({
  type: "custom_tool_call",
  name,
  input,
});
/**
 * Runs a shell command through codex's `exec` tool (JavaScript that calls the nested
 * `exec_command` tool), which is how codex 0.17x lets the model run commands.
 */
export const execCommand = (cmd: string): OpenAIItem =>
  customToolCall(
    "exec",
    `const r = await tools.exec_command(${JSON.stringify({ cmd, tty: false })});\ntext(r.output ?? "");`,
  );

const FINAL_TEXT = "Done.";

export async function startScriptedOpenAI(
  opts: ScriptedModelOptions<OpenAITurn>,
): Promise<ScriptedOpenAI> {
  const model = opts.model ?? "gpt-scripted";
  const script = createScript(opts.turns, { output: [message(FINAL_TEXT)] });
  let nextId = 1;

  const answer: ScriptedServerOptions["answer"] = async (req, res, path, body) => {
    if (req.method === "HEAD" || req.method === "GET") {
      if (path === "/v1/models") {
        json(res, 200, { object: "list", data: [{ id: model, object: "model" }] });
      } else {
        res.writeHead(200).end();
      }
      return;
    }
    // The count is what the request would be billed as input, as the provider's count is.
    if (req.method === "POST" && path === "/v1/responses/input_tokens") {
      const turn = script.peek(countAssistantTurns(body), {
        body,
        prompt: userTextOf(isRecord(body) ? body.input : undefined),
      });
      json(res, 200, {
        object: "response.input_tokens",
        input_tokens: turn.usage?.input_tokens ?? 10,
      });
      return;
    }
    if (req.method !== "POST" || path !== "/v1/responses") {
      json(res, 404, { error: { message: `no route ${path}`, type: "invalid_request_error" } });
      return;
    }

    const turn = withinOutputCap(
      script.turn(countAssistantTurns(body), {
        body,
        prompt: userTextOf(isRecord(body) ? body.input : undefined),
      }),
      body,
      "max_output_tokens",
    );
    if (turn.stallMs) await sleep(turn.stallMs);
    if (res.destroyed) return;

    startStream(res);
    const responseId = `resp_scripted_${nextId++}`;
    const base = { id: responseId, object: "response", created_at: 0, model, output: [] };
    let seq = 0;
    const send = (type: string, data: Record<string, unknown>) =>
      sse(res, type, { type, sequence_number: seq++, ...data });

    send("response.created", { response: { ...base, status: "in_progress" } });
    const done: Record<string, unknown>[] = [];
    turn.output.forEach((item, outputIndex) => {
      if (item.type === "message") {
        const id = `msg_${nextId++}`;
        const content = { type: "output_text", text: item.text, annotations: [] };
        send("response.output_item.added", {
          output_index: outputIndex,
          item: { type: "message", id, role: "assistant", status: "in_progress", content: [] },
        });
        send("response.content_part.added", {
          item_id: id,
          output_index: outputIndex,
          content_index: 0,
          part: { ...content, text: "" },
        });
        send("response.output_text.delta", {
          item_id: id,
          output_index: outputIndex,
          content_index: 0,
          delta: item.text,
        });
        send("response.output_text.done", {
          item_id: id,
          output_index: outputIndex,
          content_index: 0,
          text: item.text,
        });
        send("response.content_part.done", {
          item_id: id,
          output_index: outputIndex,
          content_index: 0,
          part: content,
        });
        const full = {
          type: "message",
          id,
          role: "assistant",
          status: "completed",
          content: [content],
        };
        send("response.output_item.done", { output_index: outputIndex, item: full });
        done.push(full);
      } else if (item.type === "custom_tool_call") {
        const id = `ctc_${nextId++}`;
        const pending = {
          type: "custom_tool_call",
          id,
          call_id: `call_${nextId++}`,
          name: item.name,
        };
        send("response.output_item.added", {
          output_index: outputIndex,
          item: { ...pending, input: "", status: "in_progress" },
        });
        send("response.custom_tool_call_input.delta", {
          item_id: id,
          output_index: outputIndex,
          delta: item.input,
        });
        send("response.custom_tool_call_input.done", {
          item_id: id,
          output_index: outputIndex,
          input: item.input,
        });
        const full = { ...pending, input: item.input, status: "completed" };
        send("response.output_item.done", { output_index: outputIndex, item: full });
        done.push(full);
      } else {
        const id = `fc_${nextId++}`;
        const args = JSON.stringify(item.arguments);
        const pending = { type: "function_call", id, call_id: `call_${nextId++}`, name: item.name };
        send("response.output_item.added", {
          output_index: outputIndex,
          item: { ...pending, arguments: "", status: "in_progress" },
        });
        send("response.function_call_arguments.delta", {
          item_id: id,
          output_index: outputIndex,
          delta: args,
        });
        send("response.function_call_arguments.done", {
          item_id: id,
          output_index: outputIndex,
          arguments: args,
        });
        const full = { ...pending, arguments: args, status: "completed" };
        send("response.output_item.done", { output_index: outputIndex, item: full });
        done.push(full);
      }
    });
    const input = turn.usage?.input_tokens ?? 10;
    const output = turn.usage?.output_tokens ?? 5;
    send("response.completed", {
      response: {
        ...base,
        status: "completed",
        output: done,
        usage: {
          input_tokens: input,
          input_tokens_details: { cached_tokens: turn.usage?.cached_tokens ?? 0 },
          output_tokens: output,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: input + output,
        },
      },
    });
    res.end();
  };

  const server = await startScriptedServer({
    authorized: (req) =>
      opts.apiKey === undefined || req.headers.authorization === `Bearer ${opts.apiKey}`,
    unauthorized: {
      error: {
        message: "Incorrect API key provided",
        type: "invalid_request_error",
        code: "invalid_api_key",
      },
    },
    failure: (message) => ({ error: { message, type: "server_error" } }),
    answer,
  });
  return {
    url: `${server.origin}/v1`,
    requests: server.requests,
    turnsServed: script.served,
    close: server.close,
  };
}

/** Items the model produced, as codex replays them in `input`. */
function isAssistantSide(item: unknown): boolean {
  if (!isRecord(item)) return false;
  if (item.type === "function_call" || item.type === "custom_tool_call") return true;
  if (item.type === "reasoning") return true;
  return item.type === "message" && item.role === "assistant";
}

function countAssistantTurns(body: unknown): number {
  if (!isRecord(body) || !Array.isArray(body.input)) return 0;
  let turns = 0;
  let inAssistantRun = false;
  for (const item of body.input) {
    if (isAssistantSide(item)) {
      if (!inAssistantRun) turns++;
      inAssistantRun = true;
    } else {
      inAssistantRun = false;
    }
  }
  return turns;
}
