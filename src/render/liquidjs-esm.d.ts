// LiquidJS's ES module build (liquid.ts): the same API as the package's main entry, typed by it.
declare module 'liquidjs/dist/liquid.node.mjs' {
  export * from 'liquidjs';
}
