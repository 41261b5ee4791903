#!/usr/bin/env node
// gatewayctl: the compiled command line (clients/typescript/dist; `npm run build` in the repository builds it).
import('../dist/cli/main.js').catch((error) => {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/cli/main.js')) {
    process.stderr.write('gatewayctl: not built yet: run `npm run build` in the repository (or install the package)\n');
    process.exit(2);
  }
  throw error;
});
