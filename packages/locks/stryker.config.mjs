// Mutation testing of @critsec/locks (the lock manager, its per-name instances, the control
// channel): `npm run test:mutation locks` (see tools/stryker.shared.mjs).
import { mutationConfig } from '../../tools/stryker.shared.mjs';

export default mutationConfig('locks', {
  mutate: ['src/manager.ts', 'src/instances.ts', 'src/control.ts', 'src/names.ts', 'src/local-queue.ts'],
});
