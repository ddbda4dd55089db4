import type { ToolCallEvent } from '../events';
import type { Emit } from './decoder';
import { createArgsWriter, type ArgsWriter } from './geminiArgsWriter';
import { applyPartialArg } from './geminiParts';
import type {
  GeminiCodeExecutionResult,
  GeminiExecutableCode,
  GeminiFunctionCall,
  GeminiPartialArg,
} from './geminiWire';

interface OpenCall {
  id: string;
  name: string;
  signature?: string;
  /** Streamed arguments: the value put together, and the JSON text sent as deltas so far. */
  input: Record<string, unknown>;
  writer: ArgsWriter;
  text: string;
}

/** The function calls of one Gemini stream: whole ones, and Vertex's streamed ones. */
export interface GeminiToolCalls {
  /** Decodes one `functionCall` part; `beforeStart` runs before a new call starts. */
  part(
    emit: Emit,
    call: GeminiFunctionCall,
    signature: string | undefined,
    beforeStart: () => void,
  ): void;
  /** Ends a streamed call the wire left open (at finish, an error or EOF). */
  close(emit: Emit): void;
  /** How many client calls started so far (code runs not counted: Google runs them). */
  readonly count: number;
  /** `executableCode`: Google runs it in its sandbox → `tool-start`, `providerExecuted`. */
  code(emit: Emit, code: GeminiExecutableCode): void;
  /** `codeExecutionResult` → `tool-end` of the code run it answers. */
  codeResult(emit: Emit, result: GeminiCodeExecutionResult): void;
}

/**
 * Function calls as `tool-input-start`, `tool-input-delta`s and `tool-call`: a whole call's
 * arguments in one delta; streamed arguments as the JSON text they make, a delta per piece. A call's id is the wire's `id`, else `gemini:<responseId>:call:<n>` (`idBase()`
 * gives `gemini:<responseId>:`): derived from the bytes, so re-chunking gives the same ids. A
 * part with `willContinue` opens a streamed call; parts without a `name` add their
 * `partialArgs`; the first without `willContinue` ends it.
 */
export function createGeminiToolCalls(idBase: () => string): GeminiToolCalls {
  let count = 0;
  let streaming: OpenCall | undefined;
  let codeRuns = 0;
  let lastCodeId: string | undefined;

  const emitCall = (emit: Emit, call: OpenCall, input: unknown, inputText: string) => {
    const event: ToolCallEvent = {
      type: 'tool-call',
      id: call.id,
      name: call.name,
      input,
      inputText,
    };
    if (call.signature !== undefined) event.signature = call.signature;
    emit(event);
  };
  const delta = (emit: Emit, call: OpenCall, text: string) => {
    if (text === '') return;
    call.text += text;
    emit({ type: 'tool-input-delta', id: call.id, delta: text });
  };
  const addArgs = (emit: Emit, call: OpenCall, args: GeminiPartialArg[] | undefined) => {
    for (const arg of args ?? []) {
      applyPartialArg(call.input, arg);
      delta(emit, call, call.writer.write(arg));
    }
  };
  /** Ends a call built from streamed arguments: the deltas add up to its `inputText`. */
  const endStreamed = (emit: Emit, call: OpenCall) => {
    const tail = call.writer.end();
    // Pieces out of document order: the value is still right, sent whole.
    if (tail === undefined) return emitCall(emit, call, call.input, JSON.stringify(call.input));
    delta(emit, call, tail);
    emitCall(emit, call, call.input, call.text);
  };
  const close = (emit: Emit) => {
    if (!streaming) return;
    const call = streaming;
    streaming = undefined;
    endStreamed(emit, call);
  };

  return {
    part(emit, wire, signature, beforeStart) {
      if (streaming && wire.name === undefined) {
        addArgs(emit, streaming, wire.partialArgs);
        if (!wire.willContinue) close(emit);
        return;
      }
      close(emit);
      beforeStart();
      const name = wire.name ?? '';
      const id = wire.id || `${idBase()}call:${count}`;
      emit({ type: 'tool-input-start', id, name, index: count });
      count++;
      const call: OpenCall = { id, name, input: {}, writer: createArgsWriter(), text: '' };
      if (signature !== undefined) call.signature = signature;
      if (wire.willContinue || wire.partialArgs) {
        addArgs(emit, call, wire.partialArgs);
        if (wire.willContinue) streaming = call;
        else endStreamed(emit, call);
        return;
      }
      const input = wire.args ?? {};
      delta(emit, call, JSON.stringify(input));
      emitCall(emit, call, input, call.text);
    },
    close,
    get count() {
      return count;
    },
    code(emit, { id, language, code }) {
      lastCodeId = id || `${idBase()}code:${codeRuns}`;
      codeRuns++;
      const args = { language, code };
      emit({
        type: 'tool-start',
        id: lastCodeId,
        name: 'code_execution',
        args,
        providerExecuted: true,
      });
    },
    codeResult(emit, { id, outcome, output }) {
      emit({
        type: 'tool-end',
        id: id || lastCodeId || `${idBase()}code:${codeRuns}`,
        name: 'code_execution',
        result: { outcome, output },
        isError: outcome !== 'OUTCOME_OK',
        providerExecuted: true,
      });
    },
  };
}
