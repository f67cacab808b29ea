// `npm run cluster:up` / `cluster:down`: the local control plane by hand.
import { startControlPlane, stopControlPlane } from './control-plane.js';

const [command = 'up', name = 'dev'] = process.argv.slice(2);
if (command === 'up') {
  const cp = await startControlPlane(name, (m) => console.error(m));
  console.log(cp.kubeconfig);
} else if (command === 'down') {
  console.error((await stopControlPlane(name)) ? `stopped control plane "${name}"` : `control plane "${name}" was not running`);
} else {
  console.error('usage: cli.ts up|down [name]');
  process.exit(2);
}
