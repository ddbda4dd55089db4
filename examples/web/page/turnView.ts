import DOMPurify from 'dompurify';
import type { StreamEvent, TerminalEvent } from '../../../src/index';
import { createMarkdown } from './markdown';

/** The parts of the page one turn renders into (see index.html). */
export interface TurnElements {
  reasoning: HTMLDetailsElement;
  reasoningText: HTMLElement;
  answer: HTMLElement;
  tools: HTMLElement;
  warnings: HTMLElement;
  status: HTMLElement;
}

/** A tool-call card: its name, its arguments as they stream, and its state. */
interface ToolCard {
  card: HTMLElement;
  args: HTMLElement;
  state: HTMLElement;
}

/**
 * Renders one turn's events into the page: reasoning into the dimmed panel (open while it
 * streams, folded when the answer starts), the answer as sanitised markdown re-rendered at most
 * once per frame, a card per tool call with its arguments streaming, and the terminal into the
 * status element (`data-outcome`).
 */
export function createTurnView(elements: TurnElements) {
  const markdown = createMarkdown();
  const toolCards = new Map<string, ToolCard>();
  let answerText = '';
  let frame: number | undefined;
  let eventCount = 0;
  let resuming = false;

  const renderAnswer = () => {
    frame = undefined;
    elements.answer.innerHTML = DOMPurify.sanitize(markdown.render(answerText));
    elements.answer.dataset.markdown = answerText;
  };
  const scheduleAnswer = () => {
    frame ??= requestAnimationFrame(renderAnswer);
  };

  const toolCard = (id: string, name: string): ToolCard => {
    const existing = toolCards.get(id);
    if (existing) return existing;
    const card = element('section', 'tool');
    card.dataset.testid = 'tool-call';
    card.dataset.toolId = id;
    const title = element('header', 'tool-name', name);
    const state = element('span', 'tool-state', 'arguments streaming…');
    title.append(' ', state);
    const args = element('pre', 'tool-args');
    card.append(title, args);
    elements.tools.append(card);
    const created = { card, args, state };
    toolCards.set(id, created);
    return created;
  };

  const finish = (terminal: TerminalEvent) => {
    if (frame !== undefined) cancelAnimationFrame(frame);
    renderAnswer();
    const { status } = elements;
    status.dataset.outcome = terminal.type;
    status.dataset.events = String(eventCount);
    status.textContent =
      terminal.type === 'completed'
        ? `Completed${terminal.finishReason ? ` (${terminal.finishReason})` : ''}${usageText(terminal)}`
        : terminal.type === 'incomplete'
          ? `Incomplete (${terminal.reason}): ${terminal.message}`
          : `Failed (${terminal.error.code}): ${terminal.error.message}`;
  };

  return {
    /** Shows one event. */
    show(event: StreamEvent): void {
      if (event.type !== 'completed' && event.type !== 'incomplete' && event.type !== 'failed') {
        eventCount++;
        if (resuming) elements.status.textContent = 'Streaming… (resumed)';
        resuming = false;
      }
      switch (event.type) {
        case 'reasoning-start':
          elements.reasoning.hidden = false;
          if (answerText === '') elements.reasoning.open = true;
          break;
        case 'reasoning-delta':
          elements.reasoning.hidden = false;
          elements.reasoningText.append(event.delta);
          break;
        case 'text-delta':
          if (answerText === '') elements.reasoning.open = false;
          answerText += event.delta;
          scheduleAnswer();
          break;
        case 'tool-input-start':
          toolCard(event.id, event.name);
          break;
        case 'tool-input-delta':
          toolCards.get(event.id)?.args.append(event.delta);
          break;
        case 'tool-call': {
          const card = toolCard(event.id, event.name);
          card.card.dataset.done = 'true';
          card.args.textContent =
            event.error === undefined ? JSON.stringify(event.input, null, 2) : event.inputText;
          card.state.textContent = event.error === undefined ? 'ready' : `bad JSON: ${event.error}`;
          break;
        }
        case 'warning':
          elements.warnings.append(element('li', 'warning', `${event.code}: ${event.message}`));
          break;
        case 'completed':
        case 'incomplete':
        case 'failed':
          finish(event);
          break;
        default:
          break;
      }
    },
    /** Says that the connection was lost and is being resumed. */
    reconnecting(attempt: number, lastEventId: number): void {
      resuming = true;
      elements.status.dataset.reconnects = String(attempt);
      elements.status.textContent = `Connection lost: resuming after event ${lastEventId}…`;
    },
  };
}

function usageText(completed: Extract<TerminalEvent, { type: 'completed' }>): string {
  const usage = completed.usage;
  if (!usage || usage.outputTokens === undefined) return '';
  return ` · ${usage.inputTokens ?? '?'} tokens in, ${usage.outputTokens} out`;
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
