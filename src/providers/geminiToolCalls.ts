import type { ToolCallEvent } from '../events';
import type { Emit } from './decoder';
import { applyPartialArg } from './geminiParts';
import type {
  GeminiCodeExecutionResult,
  GeminiExecutableCode,
  GeminiFunctionCall,
} from './geminiWire';

interface OpenCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
  signature?: string;
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
 * Function calls as `tool-input-start`, one `tool-input-delta` (the arguments as JSON) and
 * `tool-call`. A call's id is the wire's `id`, else `gemini:<responseId>:call:<n>` (`idBase()`
 * gives `gemini:<responseId>:`): derived from the bytes, so re-chunking gives the same ids. A
 * part with `willContinue` opens a streamed call; parts without a `name` add their
 * `partialArgs`; the first without `willContinue` ends it.
 */
export function createGeminiToolCalls(idBase: () => string): GeminiToolCalls {
  let count = 0;
  let streaming: OpenCall | undefined;
  let codeRuns = 0;
  let lastCodeId: string | undefined;

  const emitCall = (emit: Emit, call: OpenCall, input: unknown) => {
    const value = input ?? {};
    const inputText = JSON.stringify(value);
    emit({ type: 'tool-input-delta', id: call.id, delta: inputText });
    const event: ToolCallEvent = {
      type: 'tool-call',
      id: call.id,
      name: call.name,
      input: value,
      inputText,
    };
    if (call.signature !== undefined) event.signature = call.signature;
    emit(event);
  };
  const close = (emit: Emit) => {
    if (!streaming) return;
    const call = streaming;
    streaming = undefined;
    emitCall(emit, call, call.input);
  };

  return {
    part(emit, wire, signature, beforeStart) {
      if (streaming && wire.name === undefined) {
        for (const arg of wire.partialArgs ?? []) applyPartialArg(streaming.input, arg);
        if (!wire.willContinue) close(emit);
        return;
      }
      close(emit);
      beforeStart();
      const name = wire.name ?? '';
      const id = wire.id || `${idBase()}call:${count}`;
      emit({ type: 'tool-input-start', id, name, index: count });
      count++;
      const call: OpenCall = { id, name, input: {} };
      if (signature !== undefined) call.signature = signature;
      for (const arg of wire.partialArgs ?? []) applyPartialArg(call.input, arg);
      if (wire.willContinue) streaming = call;
      else emitCall(emit, call, wire.partialArgs ? call.input : wire.args);
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
