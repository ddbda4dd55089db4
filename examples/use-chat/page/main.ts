import { useChat } from '@ai-sdk/react';
import { createElement as h, useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';

// The useChat example's page: a stock `useChat({ resume: true })` (the AI SDK 7's React hook)
// against the llm-rx server in ../server. No JSX, so the repository's tsconfig needs no React
// settings; esbuild bundles it as it is.

type Message = ReturnType<typeof useChat>['messages'][number];

function Chat({ chatId, initialMessages }: { chatId: string; initialMessages: Message[] }) {
  const [input, setInput] = useState('');
  const [outcome, setOutcome] = useState('');
  const { messages, sendMessage, status, stop, error } = useChat({
    id: chatId,
    messages: initialMessages,
    resume: true,
    // A stopped answer: this page pressed Stop (isAbort), or the server's stream ended with
    // `abort` (a Stop from another tab or before a reload), which leaves no finish reason.
    onFinish: ({ isAbort, isError, finishReason }) =>
      setOutcome(
        isAbort || (!isError && finishReason === undefined)
          ? 'stopped'
          : isError
            ? 'error'
            : `finished (${finishReason})`,
      ),
  });
  // Stop: this page stops reading at once, and the server stops the model, on whichever node
  // records the answer; a reload then shows the answer as it was when stopped.
  const stopAnswer = () => {
    void stop();
    void fetch(`/api/chat/${encodeURIComponent(chatId)}/stop`, { method: 'POST' });
  };
  const busy = status === 'submitted' || status === 'streaming';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (input.trim() === '') return;
    setOutcome('');
    void sendMessage({ text: input });
    setInput('');
  };
  return h(
    'main',
    null,
    h('h1', null, 'llm-rx · useChat'),
    h(
      'ol',
      { className: 'messages' },
      messages.map((message) =>
        h(
          'li',
          {
            key: message.id,
            className: `message ${message.role}`,
            'data-testid': 'message',
            'data-role': message.role,
          },
          message.parts.map((part, i) =>
            part.type === 'text'
              ? h('div', { key: i, className: 'text', 'data-testid': 'text' }, part.text)
              : part.type === 'reasoning'
                ? h(
                    'details',
                    { key: i, className: 'reasoning' },
                    h('summary', null, 'Reasoning'),
                    h('div', { 'data-testid': 'reasoning' }, part.text),
                  )
                : null,
          ),
        ),
      ),
    ),
    error ? h('p', { className: 'error', 'data-testid': 'error' }, error.message) : null,
    h(
      'p',
      {
        className: 'status',
        'data-testid': 'status',
        'data-status': status,
        'data-outcome': outcome,
      },
      outcome === '' ? status : `${status} · ${outcome}`,
    ),
    h(
      'form',
      { onSubmit: submit },
      h('input', {
        id: 'question',
        'aria-label': 'Question',
        placeholder: 'Ask something…',
        value: input,
        onChange: (event: { target: { value: string } }) => setInput(event.target.value),
      }),
      h('button', { id: 'send', type: 'submit', disabled: busy }, 'Send'),
      h('button', { id: 'stop', type: 'button', disabled: !busy, onClick: stopAnswer }, 'Stop'),
    ),
  );
}

async function main(): Promise<void> {
  const params = new URLSearchParams(location.search);
  let chatId = params.get('chat');
  if (chatId === null) {
    chatId = `chat-${Math.random().toString(36).slice(2, 10)}`;
    history.replaceState(null, '', `?chat=${chatId}`);
  }
  // What a real app loads from its database: the messages of the chat so far.
  const initialMessages = (await (await fetch(`/api/chat/${chatId}/messages`)).json()) as Message[];
  createRoot(document.getElementById('root')!).render(h(Chat, { chatId, initialMessages }));
}

void main();
