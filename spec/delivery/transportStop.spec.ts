import { createStopControl } from '../../src/delivery/transportStop';
import { googleChatTransport } from '../../src/platforms/googlechat/googleChatTransport';
import { whatsappTransport } from '../../src/platforms/whatsapp/whatsappTransport';

describe('createStopControl', () => {
  it('aborts stopSignal once, with an AbortError carrying the first reason', () => {
    const control = createStopControl();
    expect([control.stopped, control.stopSignal.aborted]).toEqual([false, false]);
    control.stop('the user sent /stop');
    control.stop('later');
    expect(control.stopped).toBe(true);
    expect(control.stopSignal.reason).toMatchObject({
      name: 'AbortError',
      message: 'the user sent /stop',
    });
  });

  it('says "Stopped by the user." when no reason is given', () => {
    const control = createStopControl();
    control.stop();
    expect((control.stopSignal.reason as Error).message).toBe('Stopped by the user.');
  });
});

describe('the transports without a Stop button of their own have the bot’s stop()', () => {
  const base = 'http://127.0.0.1:9';
  it.each([
    [
      'whatsappTransport',
      () => whatsappTransport({ token: 't', phoneNumberId: '1', to: '2', apiBase: base }),
    ],
    [
      'googleChatTransport',
      () => googleChatTransport({ space: 'spaces/AAA', token: 't', apiBase: base }),
    ],
  ])('%s', (_, make) => {
    const transport = make();
    expect(transport.stopSignal.aborted).toBe(false);
    transport.stop('/stop');
    expect(transport.stopSignal.reason).toMatchObject({ name: 'AbortError', message: '/stop' });
  });
});
