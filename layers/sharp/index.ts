import { join } from 'node:path';

/**
 * The sharp Lambda layer (linux-arm64, glibc): `build-layer.ts` installs sharp from the npm registry into
 * `build/nodejs/node_modules`, Lambda's layer layout. The CDK stack packs this directory as the
 * layer of every function whose bundle leaves sharp out (the avatar routes, post uploads).
 */
export const sharpLayerDir = join(import.meta.dirname, 'build');

/** Where the layer's copy of sharp lands; its presence means the layer is built. */
export const sharpLayerPackage = join(sharpLayerDir, 'nodejs', 'node_modules', 'sharp', 'package.json');
