import type { DeliveryWarning, TransportCall } from '../../src/delivery/types';

/** A TransportCall for calling a transport directly, recording the warnings it adds. */
export function transportCall(attempt = 1): TransportCall & { warnings: DeliveryWarning[] } {
  const warnings: DeliveryWarning[] = [];
  return {
    attempt,
    signal: new AbortController().signal,
    warn: (code, message) => warnings.push({ code, message }),
    warnings,
  };
}

/** The rejection of `promise` (fails the spec when it resolves). */
export async function rejectionOf(promise: PromiseLike<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, got a value');
}
