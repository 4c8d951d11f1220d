/**
 * LiquidJS, from its ES module build. The package declares no `exports`, so `import 'liquidjs'`
 * loads its CommonJS build, which Node scans for named exports on every load: 35-38 ms against
 * 13-14 ms for the same code as a module, paid by every render worker as it starts (and a worker
 * often starts for a report render, the last one having stopped idle). Every Chronicle module
 * imports LiquidJS from here, so a process holds one copy of it (liquid-fast-path.ts compares
 * classes by identity).
 */
export * from 'liquidjs/dist/liquid.node.mjs';
