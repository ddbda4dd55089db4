import { startUseChatServer } from './server/server';

// `npx tsx examples/use-chat/serve.ts`: the useChat example on 127.0.0.1, on PORT or a free port.
async function main(): Promise<void> {
  const port = process.env.PORT === undefined ? 0 : Number(process.env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a port number, not "${process.env.PORT}"`);
  }
  const server = await startUseChatServer({ port });
  console.log(`llm-rx useChat example: ${server.url}/`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
