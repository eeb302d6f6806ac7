import { afterEach } from 'vitest';

/**
 * Closes whatever a test opened (clusters, transports, launcher runs) after each test, also
 * when the test failed. Returns `track(x)`, which registers `x` and returns it.
 */
export function closeAfterEach(): <T extends { close(): Promise<unknown> }>(x: T) => T {
  const open = new Set<{ close(): Promise<unknown> }>();
  afterEach(async () => {
    const list = [...open];
    open.clear();
    await Promise.allSettled(list.map((x) => x.close()));
  });
  return (x) => {
    open.add(x);
    return x;
  };
}
