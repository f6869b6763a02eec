#!/usr/bin/env node
// `npx hark <role>`. Hark is TypeScript run by Node's type stripping; npx and npm scripts put the
// project's own Node (the `node` package, Node 24) first on the PATH. Started by an older Node, say why.
if (!process.features.typescript) {
  process.stderr.write(
    `hark: Node ${process.version} cannot run TypeScript; run \`npx hark\` from the project (it uses the project's Node 24)\n`,
  );
  process.exit(2);
}
await import("../src/main.ts");
