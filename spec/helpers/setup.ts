// Any unhandled rejection fails the suite: llm-rx promises never to leave one behind.
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(() => {
  process.on('unhandledRejection', onUnhandled);
});

afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
  if (unhandled.length > 0) {
    throw new Error(`unhandled rejection(s): ${unhandled.map(String).join('; ')}`);
  }
});
