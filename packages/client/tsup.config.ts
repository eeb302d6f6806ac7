import { packageBuild } from '../../tools/build.js';

export default packageBuild();
