// DeliveryError as a transport builds it and deliver reads it: each field, and its defaults.
import { DeliveryError } from '../../src/delivery/errors';
import { LlmRxError } from '../../src/errors';

describe('DeliveryError', () => {
  it('without a context: retryable, not permanent, not notModified, not ambiguous', () => {
    const error = new DeliveryError('Bad Request');
    expect(error).toBeInstanceOf(LlmRxError);
    expect(error.message).toBe('Bad Request');
    expect(error.code).toBe('delivery-failed');
    expect(error.retryable).toBe(true);
    expect(error.permanent).toBe(false);
    expect(error.notModified).toBe(false);
    expect(error.ambiguous).toBe(false);
    expect(error.status).toBeUndefined();
    expect(error.retryAfterMs).toBeUndefined();
  });

  it('carries the status and retryAfterMs it was given', () => {
    const error = new DeliveryError('Too Many Requests: retry after 3', {
      retryAfterMs: 3000,
      status: 429,
    });
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBe(3000);
    expect(error.retryable).toBe(true);
    expect(error.ambiguous).toBe(false);
  });

  it('permanent is not retryable; notModified as given', () => {
    const permanent = new DeliveryError('Forbidden: bot was blocked by the user', {
      permanent: true,
      status: 403,
    });
    expect(permanent.permanent).toBe(true);
    expect(permanent.retryable).toBe(false);
    const same = new DeliveryError('message is not modified', { notModified: true });
    expect(same.notModified).toBe(true);
    expect(same.permanent).toBe(false);
    expect(same.retryable).toBe(true);
  });

  it('ambiguous by default from a status of 500 or more, else as given', () => {
    expect(new DeliveryError('x', { status: 500 }).ambiguous).toBe(true);
    expect(new DeliveryError('x', { status: 503 }).ambiguous).toBe(true);
    expect(new DeliveryError('x', { status: 499 }).ambiguous).toBe(false);
    expect(new DeliveryError('x', { status: 502, ambiguous: false }).ambiguous).toBe(false);
    expect(new DeliveryError('x', { ambiguous: true }).ambiguous).toBe(true);
  });
});
